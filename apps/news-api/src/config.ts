import { resolveMongoTarget, type MongoTarget } from '@lib/mongo';
import { allowedHostsSetting, type AllowedHosts } from '@lib/outbound';
import { baseEnvShape, readServiceEnv, z, type BaseServiceConfig } from '@lib/validation';
import { loadPublishers, type Publisher } from './feeds/feeds-config';
import { DEFAULT_KEY_LIMITS, type KeyLimits } from './keys/key-limits';

/** Printed at start when used; never used with NODE_ENV=production. */
const DEV_DEFAULTS = {
  MASTER_KEY: 'news-api-development-master-key',
  JWT_SECRET: 'news-api-development-jwt-secret-not-for-production',
} as const;

const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86400 } as const;

/** `90s`, `15m`, `1h`, `7d` (or plain seconds) as a number of seconds. */
function duration(options: { allowZero: boolean }) {
  return z
    .string()
    .regex(/^\d{1,7}[smhd]?$/, 'must be a duration such as 90s, 15m, 1h or 7d')
    .transform((value) => {
      const unit = /[smhd]$/.test(value) ? (value.slice(-1) as keyof typeof UNIT_SECONDS) : 's';
      return Number.parseInt(value, 10) * UNIT_SECONDS[unit];
    })
    .refine((seconds) => options.allowZero || seconds > 0, 'must be longer than 0');
}

/** A whole number of at least 1, at most a billion. */
const positiveCount = (what: string) =>
  z
    .string()
    .regex(/^[1-9]\d{0,8}$/, `must be a whole number of ${what} from 1 to 999999999`)
    .transform(Number);

const envSchema = z.object({
  ...baseEnvShape,
  MASTER_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  JWT_EXPIRES_IN: duration({ allowZero: false }).default(3600),
  NEWS_FEEDS: z.string().min(1, 'must be the path of a publishers file; leave it unset for the shipped list').optional(),
  NEWS_SYNC_INTERVAL: duration({ allowZero: true }).default(1800),
  NEWS_SYNC_LEASE: duration({ allowZero: false }).default(30),
  FEED_ALLOWED_HOSTS: allowedHostsSetting('FEED_ALLOWED_HOSTS'),
  NEWS_KEY_DAILY_QUOTA: positiveCount('requests').default(DEFAULT_KEY_LIMITS.daily),
  NEWS_KEY_BURST: positiveCount('requests').default(DEFAULT_KEY_LIMITS.burst),
  NEWS_KEY_BURST_WINDOW: duration({ allowZero: false })
    .refine((seconds) => seconds <= 86_400, 'must be at most a day (1d): the burst is counted within the day')
    .default(DEFAULT_KEY_LIMITS.burstWindowSeconds),
});

export interface NewsConfig extends BaseServiceConfig {
  database: MongoTarget;
  masterKey: string;
  jwt: { secret: string; expiresInSeconds: number };
  publishers: Publisher[];
  /** Host names, addresses and CIDR blocks feeds may reach although they are loopback or private, over plain http too (FEED_ALLOWED_HOSTS). */
  feedAllowedHosts: AllowedHosts;
  /** Seconds between scheduled feed syncs; 0 turns the schedule off. */
  syncIntervalSeconds: number;
  /** Seconds a sync's lease lasts unrenewed: how long a replica killed mid-sync holds the others off. */
  syncLeaseSeconds: number;
  /** What each API key may send: requests per UTC day, and per burst window (NEWS_KEY_DAILY_QUOTA, NEWS_KEY_BURST, NEWS_KEY_BURST_WINDOW). */
  keyLimits: KeyLimits;
  /** Development defaults that were used, printed at start. */
  defaultsUsed: string[];
}

/**
 * Reads the news configuration once at start. Outside production, missing secrets fall back to
 * the documented development defaults (printed); in production they are required.
 */
export function loadConfig(env: NodeJS.ProcessEnv): NewsConfig {
  const { parsed, base, values, defaultsUsed } = readServiceEnv(envSchema, env, { devDefaults: DEV_DEFAULTS, checked: ['MASTER_KEY', 'JWT_SECRET'] });
  return {
    ...base,
    database: resolveMongoTarget('NEWS', 'news', env),
    masterKey: values.MASTER_KEY,
    jwt: { secret: values.JWT_SECRET, expiresInSeconds: parsed.JWT_EXPIRES_IN },
    publishers: loadPublishers(parsed.NEWS_FEEDS),
    feedAllowedHosts: parsed.FEED_ALLOWED_HOSTS,
    syncIntervalSeconds: parsed.NEWS_SYNC_INTERVAL,
    syncLeaseSeconds: parsed.NEWS_SYNC_LEASE,
    keyLimits: { daily: parsed.NEWS_KEY_DAILY_QUOTA, burst: parsed.NEWS_KEY_BURST, burstWindowSeconds: parsed.NEWS_KEY_BURST_WINDOW },
    defaultsUsed,
  };
}
