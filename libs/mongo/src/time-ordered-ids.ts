import { randomInt } from 'node:crypto';
import type { Connection } from 'mongoose';
import type { IdSource } from './counter';

/** Where the millisecond count of a time-ordered id starts: 2020-01-01 UTC. */
export const ID_EPOCH_MS = Date.UTC(2020, 0, 1);
/** Random low bits under each millisecond: 4,096 ids to draw from per millisecond. */
export const ID_RANDOM_BITS = 12;
const SLOTS = 2 ** ID_RANDOM_BITS;
/** The last moment whose ids are safe integers (JSON numbers, JavaScript numbers): 2089-09-06. */
export const LAST_ID_MS = ID_EPOCH_MS + Math.floor(Number.MAX_SAFE_INTEGER / SLOTS) - 1;

/**
 * A time-ordered id: milliseconds since ID_EPOCH_MS times 4,096, plus a random number below 4,096;
 * or `previous + 1` when `previous` (the last id of the same key in this process) is in this
 * millisecond already or ahead of it (a clock set back). Such an id says when it was made (which
 * `created_time` says anyway) and nothing of how many records anyone else made: nothing counts
 * across keys. Ids of one key in one process grow in the order they are made; across processes
 * they follow the clock, and ids made in the same millisecond elsewhere fall in random order.
 */
export function timeOrderedId(nowMs: number, previous?: number): number {
  if (nowMs > LAST_ID_MS) throw new Error('time-ordered ids ran past 2^53 (2089-09-06): widen the id type');
  const slot = (Math.floor(nowMs) - ID_EPOCH_MS) * SLOTS;
  if (previous !== undefined && previous >= slot) return previous + 1;
  return slot + randomInt(SLOTS);
}

/** The last id of each key, kept for the current millisecond only (per connection). */
interface LastIds {
  ms: number;
  byKey: Map<string, number>;
}
const lastIds = new WeakMap<Connection, LastIds>();

function lastFor(connection: Connection, ms: number): LastIds {
  let last = lastIds.get(connection);
  if (!last || ms > last.ms) lastIds.set(connection, (last = { ms, byKey: new Map() }));
  return last;
}

/**
 * Time-ordered random ids for one key (a collection and account: `contacts:17`): no database
 * round trip; unique ids rest on the collection's `_id` index, with insertWithSequenceId drawing
 * again after a duplicate (two keys drawing the same number in the same millisecond: about one in
 * 4,096 pairs of inserts made in the same millisecond). Ids of the key made in this process grow
 * strictly, so records of one account made within a millisecond still list in creation order. After
 * a taken id the key jumps a random distance ahead, out of the other key's run.
 */
export function timeOrderedIds(connection: Connection, key: string, now: () => number = Date.now): IdSource {
  return {
    next: async () => {
      const ms = now();
      const last = lastFor(connection, ms);
      const id = timeOrderedId(ms, last.byKey.get(key));
      last.byKey.set(key, id);
      return id;
    },
    taken: async (id) => {
      const last = lastFor(connection, now());
      last.byKey.set(key, Math.max(last.byKey.get(key) ?? 0, id) + randomInt(SLOTS));
    },
  };
}
