const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * Waits after each failed attempt (Standard Webhooks' schedule, stretched with 10 h steps to about
 * three days): 12 attempts over 2 days 19 h 35 min before jitter.
 */
export const RETRY_DELAYS_MS: readonly number[] = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR, 10 * HOUR, 10 * HOUR, 10 * HOUR, 10 * HOUR];

export interface RetryPolicy {
  /** The wait after the 1st, 2nd, … failed attempt; after the last one the delivery has failed. */
  delaysMs: readonly number[];
  /** Each wait is drawn from ±this share of it, so that deliveries failed together do not all come back together. */
  jitter: number;
  /** Bounds on a receiver's Retry-After (429 and 503), which replaces the schedule's wait. */
  retryAfterMinMs: number;
  retryAfterMaxMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { delaysMs: RETRY_DELAYS_MS, jitter: 0.2, retryAfterMinMs: SECOND, retryAfterMaxMs: 10 * HOUR };

/** The total of the schedule's waits (before jitter): how long a receiver may be down before the webhook is disabled. */
export const scheduleSpanMs = (policy: RetryPolicy) => policy.delaysMs.reduce((sum, ms) => sum + ms, 0);

/**
 * The wait before the next attempt after `failedAttempts` failures, or undefined when the schedule is
 * run out. `retryAfterMs` (the receiver's Retry-After on a 429 or 503) replaces the schedule's wait,
 * within the policy's bounds, without jitter.
 */
export function nextDelayMs(policy: RetryPolicy, failedAttempts: number, retryAfterMs?: number, random: () => number = Math.random): number | undefined {
  const scheduled = policy.delaysMs[failedAttempts - 1];
  if (scheduled === undefined) return undefined;
  if (retryAfterMs !== undefined) return Math.min(Math.max(retryAfterMs, policy.retryAfterMinMs), policy.retryAfterMaxMs);
  return Math.round(scheduled * (1 + policy.jitter * (2 * random() - 1)));
}

/** A Retry-After header (seconds, or an HTTP date) as milliseconds from `nowMs`; undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, nowMs: number = Date.now()): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  if (/^\d{1,9}$/.test(value)) return Number(value) * SECOND;
  if (!/^[A-Za-z]{3}, .* GMT$/.test(value)) return undefined; // an HTTP date (IMF-fixdate)
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}
