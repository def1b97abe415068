import { allowedHosts, allowedHostsSetting, outboundPolicy } from '@lib/outbound';
import { z } from '@lib/validation';
import { DEFAULT_DELIVERY_SETTINGS, type DeliverySettings } from './webhook-settings';

const milliseconds = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d{1,7}$/, 'must be a whole number of milliseconds')
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .default(fallback);

/** The webhook variables of crm's environment (config.ts). */
export const webhookEnvShape = {
  WEBHOOK_ALLOWED_HOSTS: allowedHostsSetting('WEBHOOK_ALLOWED_HOSTS'),
  WEBHOOK_POLL_MS: milliseconds(50, 10_000, DEFAULT_DELIVERY_SETTINGS.pollMs),
  WEBHOOK_CONCURRENCY: z
    .string()
    .regex(/^\d{1,3}$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(1, 'must be at least 1').max(64, 'must be at most 64'))
    .default(DEFAULT_DELIVERY_SETTINGS.concurrency),
  WEBHOOK_LEASE_MS: milliseconds(1_000, 600_000, DEFAULT_DELIVERY_SETTINGS.leaseMs),
};

type WebhookEnv = { [K in keyof typeof webhookEnvShape]: z.output<(typeof webhookEnvShape)[K]> } & { NODE_ENV: string };

/** The delivery settings from the environment: plain http to public receivers only with NODE_ENV=development; to WEBHOOK_ALLOWED_HOSTS always. */
export function webhookSettings(env: WebhookEnv): DeliverySettings {
  return {
    ...DEFAULT_DELIVERY_SETTINGS,
    policy: outboundPolicy({ name: 'webhooks', allowed: env.WEBHOOK_ALLOWED_HOSTS, allowHttp: env.NODE_ENV === 'development' }),
    pollMs: env.WEBHOOK_POLL_MS,
    concurrency: env.WEBHOOK_CONCURRENCY,
    leaseMs: env.WEBHOOK_LEASE_MS,
  };
}

/** The settings without configuration: every default, only public https receivers (an app built by a test or a tool). */
export function defaultDeliverySettings(): DeliverySettings {
  return { ...DEFAULT_DELIVERY_SETTINGS, policy: outboundPolicy({ name: 'webhooks', allowed: allowedHosts('', 'WEBHOOK_ALLOWED_HOSTS') }) };
}
