import { conflict } from '@lib/errors';
import type { Model } from 'mongoose';
import { retryWhileRaced } from './retry';

interface Revised {
  _id: number;
  account: number;
  /** Bumped by every whole-record edit; edits are compare-and-set on it. */
  rev: number;
}

/**
 * An edit whose result depends on the stored record (merged fields checked together): reads it,
 * computes the changes, and writes them only if no other edit came in between, else retries on
 * the fresh record. Concurrent edits of different fields therefore all land. `null` when the
 * record does not exist; 409 after MAX_RACE_ATTEMPTS lost races.
 */
export async function updateByRevision<T extends Revised>(
  model: Model<T>,
  key: { _id: number; account: number },
  changesFor: (current: T) => Record<string, unknown>,
): Promise<T | null> {
  const gone = Symbol('gone');
  const result = await retryWhileRaced<T | typeof gone>(
    async () => {
      const current = await model.findOne(key).lean<T>();
      if (!current) return gone;
      const written = await model.findOneAndUpdate({ ...key, rev: current.rev }, { $set: changesFor(current), $inc: { rev: 1 } }, { returnDocument: 'after' }).lean<T>();
      return written ?? undefined;
    },
    () => conflict(`Record ${key._id} is being changed by other requests; try again`),
  );
  return result === gone ? null : result;
}
