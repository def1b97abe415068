import type { Lifecycle, Logger } from '@lib/http';
import type { FeedSync } from './feed-sync';

export interface SyncSchedule {
  /** Stops the timer, cancels a run in progress and waits for it. */
  stop(): Promise<void>;
}

/**
 * Runs the feed sync now and then every `intervalMs` (main.ts only: tests start it only when they
 * test it). A tick while a run is still going joins it; no tick starts once shutdown began.
 */
export function scheduleSync(sync: FeedSync, options: { intervalMs: number; logger: Logger; lifecycle: Lifecycle }): SyncSchedule {
  const { intervalMs, logger, lifecycle } = options;
  let current: Promise<void> | undefined;
  const tick = () => {
    if (lifecycle.shuttingDown) return;
    current = sync.run().then(
      (report) => {
        const failed = report.sources.filter((s) => s.errors.length).map((s) => s.id);
        const inserted = report.sources.reduce((sum, s) => sum + s.inserted, 0);
        logger.info({ inserted, failed }, `feed sync: ${inserted} new articles${failed.length ? `; failing: ${failed.join(', ')}` : ''}`);
      },
      (err: unknown) => logger.error({ err }, 'feed sync failed'),
    );
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await sync.stop();
      await current;
    },
  };
}
