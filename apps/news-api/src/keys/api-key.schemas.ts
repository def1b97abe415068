import { pathId, queryInt, z } from '@lib/validation';
import { accessTokenField } from '../auth/access-token';
import { USAGE_KEPT_DAYS } from './key-limits';

export const KEY_NAME_MAX = 100;
/** API keys a user may hold at once; more is a 409 key_limit_reached. */
export const KEYS_PER_USER = 10;
export const DEFAULT_USAGE_DAYS = 7;

const keyName = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(KEY_NAME_MAX, `must be at most ${KEY_NAME_MAX} characters`)
  // eslint-disable-next-line no-control-regex
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), 'must not hold control characters (line breaks, tabs…)')
  .meta({ description: `What the key is for, to tell keys apart (1–${KEY_NAME_MAX} characters)`, example: 'price alerts' });

export const createKeyBody = z.strictObject({ name: keyName, ...accessTokenField });

export const keyParams = z.strictObject({ id: pathId });

export const keysQuery = z.strictObject({ ...accessTokenField });

export const usageQuery = z.strictObject({
  days: queryInt({ min: 1, max: USAGE_KEPT_DAYS, description: `UTC days to report, today included (default ${DEFAULT_USAGE_DAYS}, at most ${USAGE_KEPT_DAYS})` }).default(DEFAULT_USAGE_DAYS),
  ...accessTokenField,
});

const createdAt = z.string().meta({ description: 'ISO 8601, UTC', example: '2026-11-25T08:00:00.000Z' });

export const keyOutput = z
  .strictObject({ id: z.number().int(), name: z.string(), createdAt })
  .meta({ id: 'ApiKey', description: 'An API key, without the key itself (shown once, when it is created)' });

export const newKeyOutput = z
  .strictObject({
    id: z.number().int(),
    name: z.string(),
    key: z.string().meta({ description: 'The key: send it as X-Api-Key (or ?apiKey=). Shown this once; only its hash is stored', example: 'nk_1024_…' }),
    createdAt,
  })
  .meta({ id: 'NewApiKey' });

export const keyList = z.strictObject({ total: z.number().int(), data: z.array(keyOutput) });

export const usageOutput = z.strictObject({
  from: z.string().meta({ description: 'First UTC day reported (YYYY-MM-DD)' }),
  to: z.string().meta({ description: 'Last UTC day reported: today' }),
  data: z.array(
    z.strictObject({
      day: z.string().meta({ description: 'UTC day, YYYY-MM-DD' }),
      key: z.strictObject({ id: z.number().int(), name: z.string() }),
      requests: z.number().int().meta({ description: 'Requests of the key admitted that day (counted against its daily quota)' }),
      quota: z.number().int().meta({ description: 'The daily quota of every key (NEWS_KEY_DAILY_QUOTA)' }),
    }),
  ),
});
