/** One piece of work a pass starts. It handles its own errors: a rejection is dropped here. */
export type Job = (stopping: AbortSignal) => Promise<unknown>;

export interface PollingWorker {
  /** Starts looking for work (every `pollMs`, and at once after each `nudge`). */
  start(): void;
  /** Work is due now: look at once instead of at the next poll. */
  nudge(): void;
  /** Stops looking, aborts the signal the jobs in flight were given, and waits for them. */
  stop(): Promise<void>;
  /** The signal of the current run (aborted by `stop`). */
  readonly stopping: AbortSignal;
}

export interface PollingWorkerOptions {
  pollMs: number;
  /** Jobs in flight at most. */
  concurrency: number;
  /** The jobs to start now, at most `free` of them: fewer when less is due, none when the read failed. */
  next(free: number): Promise<Job[]>;
}

/**
 * The loop the crm background workers share (webhook deliveries, campaign steps): a pass asks for
 * as many jobs as there are free slots, starts them, and waits for the next poll, or only briefly
 * when every slot is busy and more may be due; `nudge` cuts the wait short.
 */
export function pollingWorker({ pollMs, concurrency, next }: PollingWorkerOptions): PollingWorker {
  const inFlight = new Set<Promise<unknown>>();
  let controller = new AbortController();
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  let nudged = false;

  function wait(ms: number): Promise<void> {
    if (nudged) {
      nudged = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });
  }

  async function run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      let started = 0;
      const free = concurrency - inFlight.size;
      if (free > 0) {
        for (const job of (await next(free)).slice(0, free)) {
          started++;
          const task: Promise<unknown> = job(signal)
            .catch(() => undefined)
            .finally(() => inFlight.delete(task));
          inFlight.add(task);
        }
      }
      if (signal.aborted) break;
      // work left (every slot busy, or more due than taken): look again soon; else at the next poll
      await wait(started && inFlight.size >= concurrency ? Math.min(pollMs, 50) : pollMs);
    }
  }

  function nudge(): void {
    if (wake) wake();
    else nudged = true;
  }

  return {
    start() {
      if (loop) return;
      controller = new AbortController();
      loop = run(controller.signal);
    },
    nudge,
    async stop() {
      controller.abort();
      wake?.();
      await loop;
      loop = undefined;
      await Promise.all([...inFlight]);
    },
    get stopping() {
      return controller.signal;
    },
  };
}
