import { HttpError } from '@lib/errors';
import { lruCache } from '@lib/cache';
import type { ApiKeyDoc } from './api-key.model';
import type { CountLimits, KeyUsageRepository, UsageCounts, UsageSlot } from './key-usage.repository';

/** What each key may send (NEWS_KEY_DAILY_QUOTA, NEWS_KEY_BURST, NEWS_KEY_BURST_WINDOW). */
export interface KeyLimits {
  /** Requests per key per UTC day. */
  daily: number;
  /** Requests per key within one burst window. */
  burst: number;
  burstWindowSeconds: number;
}

export const DEFAULT_KEY_LIMITS: KeyLimits = { daily: 1000, burst: 5, burstWindowSeconds: 1 };

/** How many days of usage are kept (GET /users/me/usage looks this far back at most). */
export const USAGE_KEPT_DAYS = 31;

const DAY_MS = 86_400_000;
/** Keys whose state this process remembers (hints and refusals): the least recently used go first. */
const REMEMBERED_KEYS = 10_000;
/** Rounds of counting when windows end and open between the tries; each round is at most three commands. */
const MAX_ROUNDS = 3;

export type Policy = 'daily' | 'burst';

/** The IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers-11) of an answer to a keyed request. */
export type RateLimitHeaders = { 'RateLimit-Policy': string; RateLimit: string };

export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayStart = (day: string) => Date.parse(`${day}T00:00:00.000Z`);
const secondsUntil = (ms: number, now: number) => Math.max(0, Math.ceil((ms - now) / 1000));

/** `RateLimit-Policy`: the same for every answer of the service. */
export const policyHeader = (limits: KeyLimits) => `"daily";q=${limits.daily};w=86400, "burst";q=${limits.burst};w=${limits.burstWindowSeconds}`;

interface Standing {
  /** Requests left today and in the burst window, and when each ends (ms). */
  daily: number;
  dailyEnds: number;
  burst: number;
  burstEnds: number;
}

/**
 * Counts each keyed request against its key's daily quota and burst rate, in the database that every
 * replica shares: exact across replicas (each admission is one conditional atomic update of the
 * key's document of the day, key-usage.repository.ts). A request costs one command when this process
 * guessed right whether the key's burst window is still open (it remembers the window's end from
 * the key's last answer here), two when it guessed wrong (another replica opened or closed it), and
 * a refused request one more to say why; once refused, the key is refused here without a command
 * until that window or day ends (a count only grows within them, so that refusal stays right).
 */
export function keyLimiter(usage: KeyUsageRepository, limits: KeyLimits) {
  const counted: CountLimits = { daily: limits.daily, burst: limits.burst, burstWindowMs: limits.burstWindowSeconds * 1000 };
  const policy = policyHeader(limits);
  /** The end of each key's burst window as last seen here, with its day. */
  const windows = lruCache<number, { day: string; ends: number }>({ max: REMEMBERED_KEYS });
  /** Keys refused here until a time, and why. */
  const refused = lruCache<number, { until: number; standing: Standing; policy: Policy }>({ max: REMEMBERED_KEYS });

  // Measured when the answer is made; replicas whose clocks differ could still see a window end a
  // little more than its length ahead: `t` never says more than the window's length.
  const burstSeconds = (s: Standing, now: number) => Math.min(limits.burstWindowSeconds, secondsUntil(s.burstEnds, now));
  const headers = (s: Standing, now: number): RateLimitHeaders => ({
    'RateLimit-Policy': policy,
    RateLimit: `"daily";r=${s.daily};t=${secondsUntil(s.dailyEnds, now)}, "burst";r=${s.burst};t=${burstSeconds(s, now)}`,
  });

  const standingOf = (counts: UsageCounts | null, dayEnds: number, now: number): Standing => {
    const open = counts !== null && counts.burst_ends.getTime() > now;
    return {
      daily: Math.max(0, limits.daily - (counts?.count ?? 0)),
      dailyEnds: dayEnds,
      burst: open ? Math.max(0, limits.burst - counts.burst) : limits.burst,
      burstEnds: open ? counts.burst_ends.getTime() : now + counted.burstWindowMs,
    };
  };

  function refusal(why: { standing: Standing; policy: Policy }, now: number): HttpError {
    const { standing } = why;
    const retryAfter = Math.max(1, why.policy === 'daily' ? secondsUntil(standing.dailyEnds, now) : burstSeconds(standing, now));
    const message =
      why.policy === 'daily'
        ? `This API key has used its ${limits.daily} requests of the day (UTC); more from 00:00 UTC, in ${retryAfter} seconds`
        : `This API key sent ${limits.burst} requests within ${limits.burstWindowSeconds} s; try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}`;
    return new HttpError(429, 'too_many_requests', message, { headers: { ...headers(standing, now), 'Retry-After': String(retryAfter) } });
  }

  return {
    policy,

    /** Counts a request of the key: the headers of its answer, or throws the 429 (with Retry-After) when the key has no room. */
    async admit(key: Pick<ApiKeyDoc, '_id' | 'user'>): Promise<RateLimitHeaders> {
      const start = Date.now();
      const known = refused.get(key._id);
      if (known && known.until > start) throw refusal(known, start);
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const nowMs = Date.now();
        const now = new Date(nowMs);
        const day = utcDay(nowMs);
        const dayEnds = dayStart(day) + DAY_MS;
        const slot: UsageSlot = { key: key._id, user: key.user, day, expire: new Date(dayEnds + USAGE_KEPT_DAYS * DAY_MS) };
        const seen = windows.get(key._id);
        const open = seen !== undefined && seen.day === day && seen.ends > nowMs;
        const first = open ? usage.countInWindow : usage.openWindow;
        const second = open ? usage.openWindow : usage.countInWindow;
        const counts = (await first(slot, now, counted)) ?? (await second(slot, now, counted));
        if (counts) {
          windows.set(key._id, { day, ends: counts.burst_ends.getTime() });
          // the times left as of the answer (the window may have been opened by another replica while this request waited)
          return headers(standingOf(counts, dayEnds, nowMs), Date.now());
        }
        // no room, or a window ended between the two tries: the counts say which
        const standing = standingOf(await usage.counts(slot), dayEnds, nowMs);
        const policy: Policy | undefined = standing.daily === 0 ? 'daily' : standing.burst === 0 ? 'burst' : undefined;
        if (policy) {
          const why = { standing, policy };
          refused.set(key._id, { ...why, until: policy === 'daily' ? dayEnds : standing.burstEnds });
          throw refusal(why, Date.now());
        }
      }
      throw new HttpError(503, 'overloaded', 'The request could not be counted against the key\'s limits; try again', { headers: { 'Retry-After': '1' } });
    },
  };
}

export type KeyLimiter = ReturnType<typeof keyLimiter>;
