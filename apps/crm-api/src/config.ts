import { resolveMongoTarget, type MongoTarget } from '@lib/mongo';
import { baseEnvShape, readServiceEnv, z, type BaseServiceConfig } from '@lib/validation';
import { DEFAULT_MILESTONES } from './tracks/track.model';
import { milestoneList } from './tracks/track.schemas';
import { webhookEnvShape, webhookSettings } from './webhooks/webhook-config';
import { campaignEnvShape, campaignSettings, type CampaignSettings } from './campaigns/campaign-settings';
import type { DeliverySettings } from './webhooks/webhook-settings';

const DEV_DEFAULTS = {
  CRM_ADMIN_EMAIL: 'admin@example.com',
  CRM_ADMIN_API_KEY: 'dev-api-key',
  CRM_DOMAIN: 'example',
  CRM_CURSOR_SECRET: 'crm-api-development-cursor-secret',
} as const;

const envSchema = z.object({
  ...baseEnvShape,
  CRM_ADMIN_EMAIL: z.email('must be an email address').optional(),
  CRM_ADMIN_API_KEY: z.string().min(8, 'must be at least 8 characters').optional(),
  CRM_DOMAIN: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'must be lowercase letters, digits and hyphens')
    .optional(),
  CRM_CONTACT_LIMIT: z
    .string()
    .regex(/^\d{1,9}$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(1, 'must be at least 1'))
    .default(50_000),
  CRM_CURSOR_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  CRM_DEFAULT_MILESTONES: milestoneList.default(DEFAULT_MILESTONES),
  ...webhookEnvShape,
  ...campaignEnvShape,
});

export interface CrmConfig extends BaseServiceConfig {
  database: MongoTarget;
  bootstrap: { email: string; apiKey: string; domain: string };
  contactLimit: number;
  cursorSecret: string;
  /** Milestones of the Default track made for each account. */
  defaultMilestones: string[];
  /** Webhook delivery (WEBHOOK_ALLOWED_HOSTS, WEBHOOK_POLL_MS, WEBHOOK_CONCURRENCY, WEBHOOK_LEASE_MS). */
  webhooks: DeliverySettings;
  /** The campaign worker (CAMPAIGN_POLL_MS, CAMPAIGN_LEASE_MS, CAMPAIGN_CONCURRENCY). */
  campaigns: CampaignSettings;
  /** Development defaults that were used, printed at start. */
  defaultsUsed: string[];
}

/**
 * Reads the CRM configuration. Outside production, missing bootstrap secrets fall back to the
 * documented development defaults; in production they are required.
 */
export function loadConfig(env: NodeJS.ProcessEnv): CrmConfig {
  const { parsed, base, values, defaultsUsed } = readServiceEnv(envSchema, env, { devDefaults: DEV_DEFAULTS, checked: ['CRM_ADMIN_API_KEY', 'CRM_CURSOR_SECRET'] });
  return {
    ...base,
    database: resolveMongoTarget('CRM', 'crm', env),
    bootstrap: { email: values.CRM_ADMIN_EMAIL, apiKey: values.CRM_ADMIN_API_KEY, domain: values.CRM_DOMAIN },
    contactLimit: parsed.CRM_CONTACT_LIMIT,
    cursorSecret: values.CRM_CURSOR_SECRET,
    defaultMilestones: parsed.CRM_DEFAULT_MILESTONES,
    webhooks: webhookSettings(parsed),
    campaigns: campaignSettings(parsed),
    defaultsUsed,
  };
}
