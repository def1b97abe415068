import { conflict } from '@lib/errors';
import type { Model } from 'mongoose';

const MAX_ATTEMPTS = 20;

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
 * record does not exist; 409 after MAX_ATTEMPTS lost races.
 */
export async function updateByRevision<T extends Revised>(
  model: Model<T>,
  key: { _id: number; account: number },
  changesFor: (current: T) => Record<string, unknown>,
): Promise<T | null> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await model.findOne(key).lean<T>();
    if (!current) return null;
    const changes = changesFor(current);
    const written = await model
      .findOneAndUpdate({ ...key, rev: current.rev }, { $set: changes, $inc: { rev: 1 } }, { returnDocument: 'after' })
      .lean<T>();
    if (written) return written;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 ** attempt)));
  }
  throw conflict(`Record ${key._id} is being changed by other requests; try again`);
}
