import { setTimeout as sleep } from 'node:timers/promises';

/** Tries an update loses to concurrent writers before the request is answered 409. */
export const MAX_RACE_ATTEMPTS = 20;

export interface RetryOptions {
  /** Tries at most (default MAX_RACE_ATTEMPTS). */
  attempts?: number;
  /** Stops trying once this much time has passed since the first try. */
  withinMs?: number;
}

/**
 * Runs `attempt` until it answers something other than `undefined` (its compare-and-set won, or it
 * got what it waited for), pausing a random 0 to min(50, 2^n) ms between tries so that racing
 * writers spread out. Throws `exhausted()` once the tries or the time are used up; an error thrown
 * by `attempt` ends the retries at once.
 */
export async function retryWhileRaced<T>(attempt: (index: number) => Promise<T | undefined>, exhausted: () => Error, options: RetryOptions = {}): Promise<T> {
  const { attempts = MAX_RACE_ATTEMPTS, withinMs } = options;
  const deadline = withinMs === undefined ? Infinity : Date.now() + withinMs;
  for (let index = 0; index < attempts; index++) {
    const result = await attempt(index);
    if (result !== undefined) return result;
    if (Date.now() > deadline) break;
    await sleep(Math.random() * Math.min(50, 2 ** index));
  }
  throw exhausted();
}
