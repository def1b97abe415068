import type { AttemptBuckets } from './attempt-buckets';

/** How often places owed back to the buckets are given back again. */
export const OWED_RETRY_MS = 500;

/**
 * Places this process owes the buckets: their give-back failed with the database, or their take
 * failed without an answer (it may have been stored before the connection was cut, or be applied
 * later: a command queued in a stalled server runs when it resumes). Held on, they would keep the
 * bucket's room from correct attempts until they expire. All of them are given back together, one
 * round trip every OWED_RETRY_MS while any is owed: a place whose take was answered until one
 * give-back succeeds, a place whose take had no answer until it would have expired (whether or not
 * a give-back finds it; giving back a place that is not there changes nothing).
 */
export function owedPlaces(buckets: AttemptBuckets, wake: (key: string) => void) {
  const owed = new Map<string, { keys: string[]; expires: number; untilExpiry: boolean }>();
  let timer: NodeJS.Timeout | undefined;

  const schedule = () => {
    if (timer || owed.size === 0) return;
    timer = setTimeout(flush, OWED_RETRY_MS);
    timer.unref();
  };

  async function flush() {
    const now = Date.now();
    for (const [id, place] of owed) if (place.expires <= now) owed.delete(id);
    const due = [...owed];
    try {
      await buckets.giveBackAll(due.flatMap(([id, { keys }]) => keys.map((key) => ({ key, id }))));
      for (const [id, place] of due) if (!place.untilExpiry) owed.delete(id);
      new Set(due.flatMap(([, { keys }]) => keys)).forEach(wake);
    } catch {
      // the database still fails: the next round tries again
    } finally {
      timer = undefined;
      schedule();
    }
  }

  return {
    /** Owes attempt `id`'s places in `keys` until `expires`; `untilExpiry` for a take that had no answer. */
    owe(keys: string[], id: string, expires: number, untilExpiry: boolean): void {
      if (keys.length === 0 || expires <= Date.now()) return;
      const known = owed.get(id);
      owed.set(id, { keys: [...new Set([...(known?.keys ?? []), ...keys])], expires, untilExpiry: untilExpiry || (known?.untilExpiry ?? false) });
      schedule();
    },
  };
}
