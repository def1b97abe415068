import { driverCollection, isDuplicateKey } from '@lib/mongo';
import { Schema, type Connection } from 'mongoose';

export const FAILED_ATTEMPTS_COLLECTION = 'failed_attempts';

/**
 * One bucket: the confirmed failures of its window and the attempts in flight, each with the time
 * its place expires (a process that dies mid-attempt holds it no longer). `used` is failures plus
 * places, kept by `$inc` with every change, so taking a place is one conditional update. The
 * embedded development database has no `$push`/`$pull`, `$max` or pipeline updates: places are
 * fields of an object, set and unset by name.
 */
export interface BucketDoc {
  _id: unknown;
  key: string;
  failures: number;
  /** When the window that the first failure started ends; absent while no failure is counted. */
  window_ends?: Date | null;
  /** Attempt id → when its place expires. */
  pending?: Record<string, Date>;
  used: number;
  /** When the document may go: later than its window and every place (TTL index). */
  expire: Date;
}

const bucketSchema = new Schema<BucketDoc>(
  { key: String, failures: Number, window_ends: Date, pending: Schema.Types.Mixed, used: Number, expire: Date },
  { versionKey: false, minimize: false },
);
bucketSchema.index({ key: 1 }, { unique: true }); // one bucket per limit, address and identity
bucketSchema.index({ expire: -1 }, { expireAfterSeconds: 0 }); // a bucket goes when its window and its places have

/** What a take found when the bucket had no room. */
export type Full = { refused: true; retryAfterMs: number } | { refused: false };
export const isFull = (found: object): found is Full => 'refused' in found;

export interface BucketTimes {
  windowMs: number;
  /** How long a place in flight lasts unless given back. */
  placeMs: number;
}

/** The buckets of the `failed_attempts` collection. Every change is one atomic single-document update. */
export function attemptBuckets(connection: Connection, { windowMs, placeMs }: BucketTimes) {
  const Bucket = connection.models.FailedAttempt ?? connection.model<BucketDoc>('FailedAttempt', bucketSchema, FAILED_ATTEMPTS_COLLECTION);
  const buckets = () => driverCollection<BucketDoc>(Bucket);
  // every write moves the document's end past anything it can hold: a window starts no later than
  // now, a place ends no later than now + placeMs
  const expire = (now: number) => new Date(now + windowMs + placeMs);
  const place = (id: string) => `pending.${id}`;

  /** Tidies what has ended: places past their time, a window that is over. True when it changed something. */
  async function tidy(doc: BucketDoc, now: number): Promise<boolean> {
    let changed = false;
    for (const [id, until] of Object.entries(doc.pending ?? {})) {
      if (until.getTime() > now) continue;
      const done = await buckets().updateOne({ key: doc.key, [place(id)]: until }, { $unset: { [place(id)]: '' }, $inc: { used: -1 } });
      changed ||= done.modifiedCount > 0;
    }
    if (doc.failures > 0 && doc.window_ends && doc.window_ends.getTime() <= now) {
      const reset = await buckets().updateOne(
        { key: doc.key, failures: doc.failures, window_ends: doc.window_ends },
        { $set: { failures: 0, window_ends: null }, $inc: { used: -doc.failures } },
      );
      changed ||= reset.modifiedCount > 0;
    }
    return changed;
  }

  /** Why a bucket without room has none: its failures (refused until the window ends), or places in flight (wait). */
  function fullness(doc: BucketDoc | null, limit: number, now: number): Full {
    const ends = doc?.window_ends?.getTime() ?? 0;
    if (doc && doc.failures >= limit && ends > now) return { refused: true, retryAfterMs: ends - now };
    return { refused: false };
  }

  /** Gives back the places of several attempts in one round trip; a place that is not held is left as it is. */
  async function giveBackAll(places: Array<{ key: string; id: string }>): Promise<void> {
    if (places.length === 0) return;
    const updates = places.map(({ key, id }) => ({
      updateOne: { filter: { key, [place(id)]: { $exists: true } }, update: { $unset: { [place(id)]: '' as const }, $inc: { used: -1 } } },
    }));
    await buckets().bulkWrite(updates, { ordered: false });
  }

  return {
    /**
     * Takes a place for attempt `id` when failures plus places are under `limit`: answers the room
     * left after it. Otherwise tidies what has ended and tries again, and answers why there is no room.
     */
    async take(key: string, id: string, limit: number): Promise<{ left: number } | Full> {
      for (let round = 0; ; round++) {
        const now = Date.now();
        try {
          // a full bucket misses the filter, and the upsert's insert of the same key is a duplicate
          const doc = await buckets().findOneAndUpdate(
            { key, used: { $lt: limit } },
            { $set: { [place(id)]: new Date(now + placeMs), expire: expire(now) }, $inc: { used: 1 }, $setOnInsert: { failures: 0 } },
            { upsert: true, returnDocument: 'after' },
          );
          // a window that is over frees its room for the next ones
          if (doc && (await tidy(doc, now))) return { left: limit - ((await buckets().findOne({ key }))?.used ?? limit) };
          return { left: limit - (doc?.used ?? limit) };
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
        }
        const doc = await buckets().findOne({ key });
        if (doc && (await tidy(doc, now))) continue;
        // not full: another attempt made the bucket at the same moment (its insert won), or gave a place back since
        if ((!doc || doc.used < limit) && round < 3) continue;
        return fullness(doc, limit, now);
      }
    },

    /** The bucket's state for a waiting attempt: the room left, or why there is none. */
    async room(key: string, limit: number): Promise<{ left: number } | Full> {
      const now = Date.now();
      let doc = await buckets().findOne({ key });
      if (doc && (await tidy(doc, now))) doc = await buckets().findOne({ key });
      return !doc || doc.used < limit ? { left: limit - (doc?.used ?? 0) } : fullness(doc, limit, now);
    },

    /** Gives the attempt's places in these buckets back (it did not fail), in one round trip. */
    giveBack: (keys: string[], id: string) => giveBackAll(keys.map((key) => ({ key, id }))),
    giveBackAll,

    /**
     * Turns the place into a confirmed failure (counted even when the place has expired meanwhile);
     * the first failure of a window starts it.
     */
    async fail(key: string, id: string): Promise<void> {
      for (let round = 0; round < 20; round++) {
        const now = Date.now();
        // the common case: a window is running and the place is held
        const counted = await buckets().updateOne(
          { key, [place(id)]: { $exists: true }, window_ends: { $gt: new Date(now) } },
          { $unset: { [place(id)]: '' }, $inc: { failures: 1 }, $set: { expire: expire(now) } },
        );
        if (counted.matchedCount) return;
        const doc = await buckets().findOne({ key });
        const held = doc?.pending?.[id] !== undefined;
        const running = (doc?.window_ends?.getTime() ?? 0) > now;
        if (running && held) continue; // a window started meanwhile: the common case again
        try {
          // compare-and-set on what was read; a bucket gone meanwhile (TTL) is made again
          const done = running
            ? await buckets().updateOne({ key, failures: doc?.failures, window_ends: doc?.window_ends }, { $inc: { failures: 1, used: 1 }, $set: { expire: expire(now) } })
            : await buckets().updateOne(
                { key, failures: doc?.failures ?? 0, window_ends: doc?.window_ends ?? null, ...(held && { [place(id)]: { $exists: true } }) },
                {
                  $set: { failures: 1, window_ends: new Date(now + windowMs), expire: expire(now) },
                  $inc: { used: (held ? 0 : 1) - (doc?.failures ?? 0) },
                  ...(held && { $unset: { [place(id)]: '' } }),
                },
                { upsert: true },
              );
          if (done.matchedCount || done.upsertedCount) return;
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
        }
      }
      throw new Error(`failed attempt of ${key} not counted: the bucket kept changing`);
    },
  };
}

export type AttemptBuckets = ReturnType<typeof attemptBuckets>;
