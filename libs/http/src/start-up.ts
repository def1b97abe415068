import { setTimeout as sleep } from 'node:timers/promises';
import { toHttpError } from '@lib/errors';
import type { Logger } from './logger';

export interface StartUpStep {
  /** For the log: "reaching the database", "creating indexes", … */
  name: string;
  run(): Promise<void>;
}

/** Waits between attempts of a failed step: doubling from `firstMs` up to `maxMs`. */
export interface RetryDelays {
  firstMs: number;
  maxMs: number;
}

export const START_UP_RETRY: RetryDelays = { firstMs: 500, maxMs: 10_000 };

/**
 * Runs the steps in order, each until it succeeds (they must be safe to repeat), so that a service
 * whose database is unreachable at start keeps trying instead of exiting (a Kubernetes rollout
 * would otherwise crash-loop). Resolves true when all succeeded, false when `signal` aborted first;
 * rejects on an error that is not the database being unavailable (a bug or bad configuration,
 * which no retry mends).
 */
export async function runStartUp(steps: StartUpStep[], options: { logger: Logger; signal: AbortSignal; delays?: RetryDelays }): Promise<boolean> {
  const { logger, signal, delays = START_UP_RETRY } = options;
  for (const step of steps) {
    for (let attempt = 1, delay = delays.firstMs; ; attempt++, delay = Math.min(delay * 2, delays.maxMs)) {
      if (signal.aborted) return false;
      try {
        await step.run();
        break;
      } catch (err) {
        if (signal.aborted) return false;
        if (toHttpError(err)?.status !== 503) throw err;
        logger.warn({ attempt, error: (err as Error).message }, `start-up: ${step.name} failed; trying again in ${delay} ms`);
        const aborted = await sleep(delay, false, { signal }).catch(() => true);
        if (aborted) return false;
      }
    }
  }
  return true;
}
