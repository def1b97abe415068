import { z } from '@lib/validation';

/** How the campaign worker runs (config.ts: CAMPAIGN_*). */
export interface CampaignSettings {
  /** How often a replica looks for due enrolments. */
  pollMs: number;
  /** How long a claim on an enrolment holds: a replica that dies blocks that enrolment this long at most. */
  leaseMs: number;
  /** Enrolments a replica serves at once. */
  concurrency: number;
  /** Steps run in a row under one claim before the enrolment goes back to the queue. */
  stepsPerClaim: number;
}

export const DEFAULT_CAMPAIGN_SETTINGS: CampaignSettings = { pollMs: 1_000, leaseMs: 60_000, concurrency: 4, stepsPerClaim: 20 };

const whole = (name: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d{1,7}$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .default(fallback)
    .meta({ description: name });

/** The campaign variables of crm's environment. */
export const campaignEnvShape = {
  CAMPAIGN_POLL_MS: whole('CAMPAIGN_POLL_MS', 50, 60_000, DEFAULT_CAMPAIGN_SETTINGS.pollMs),
  CAMPAIGN_LEASE_MS: whole('CAMPAIGN_LEASE_MS', 1_000, 600_000, DEFAULT_CAMPAIGN_SETTINGS.leaseMs),
  CAMPAIGN_CONCURRENCY: whole('CAMPAIGN_CONCURRENCY', 1, 64, DEFAULT_CAMPAIGN_SETTINGS.concurrency),
};

type CampaignEnv = { [K in keyof typeof campaignEnvShape]: z.output<(typeof campaignEnvShape)[K]> };

export function campaignSettings(env: CampaignEnv): CampaignSettings {
  return { ...DEFAULT_CAMPAIGN_SETTINGS, pollMs: env.CAMPAIGN_POLL_MS, leaseMs: env.CAMPAIGN_LEASE_MS, concurrency: env.CAMPAIGN_CONCURRENCY };
}
