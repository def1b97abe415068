import type { Lifecycle, Logger } from '@lib/http';
import { isSyncInterruption, type FeedSync } from './feed-sync';

export interface SyncSchedule {
  /** Stops the timer, cancels a run in progress and waits for it. */
  stop(): Promise<void>;
}

export interface SyncScheduleOptions {
  /** A sync is due when none that started this long ago ran to its end, on any replica. */
  intervalMs: number;
  /** How often this replica looks whether a sync is due (default: every 2 s, or the interval when shorter). */
  checkMs?: number;
  logger: Logger;
  lifecycle: Lifecycle;
}

/**
 * Keeps the feeds synced every `intervalMs` across the cluster (main.ts only: tests start it only
 * when they test it). Every replica looks now and then whether a sync is due, by the shared record
 * of the last complete run; the one that takes the lease runs it. So a pod start syncs only when no
 * replica synced within the interval, and a run stopped by shutdown is taken up by another replica
 * at its next look. No look starts once shutdown began.
 */
export function scheduleSync(sync: FeedSync, options: SyncScheduleOptions): SyncSchedule {
  const { intervalMs, logger, lifecycle } = options;
  const checkMs = options.checkMs ?? Math.min(intervalMs, 2_000);
  let current: Promise<void> | undefined;
  const look = async () => {
    try {
      const report = await sync.runIfDue(intervalMs);
      if (!report) return;
      const failed = report.sources.filter((s) => s.errors.length).map((s) => s.id);
      const inserted = report.sources.reduce((sum, s) => sum + s.inserted, 0);
      logger.info({ inserted, failed }, `feed sync: ${inserted} new articles${failed.length ? `; failing: ${failed.join(', ')}` : ''}`);
    } catch (err) {
      if (isSyncInterruption(err)) logger.info('feed sync stopped before its end; another replica takes it up');
      else logger.error({ err }, 'feed sync failed');
    }
  };
  const tick = () => {
    if (lifecycle.shuttingDown || current) return;
    current = look().finally(() => (current = undefined));
  };
  tick();
  const timer = setInterval(tick, checkMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await sync.stop();
      await current;
    },
  };
}
