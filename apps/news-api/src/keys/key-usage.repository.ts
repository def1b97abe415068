import { driverCollection, isDuplicateKey } from '@lib/mongo';
import type { Connection } from 'mongoose';
import { keyUsageModel, type KeyUsageDoc } from './key-usage.model';

/** The counts a request is admitted against. */
export interface CountLimits {
  daily: number;
  burst: number;
  burstWindowMs: number;
}

/** Where one key's request of one day is counted. */
export interface UsageSlot {
  key: number;
  user: number;
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  /** When the day's document may go. */
  expire: Date;
}

export type UsageCounts = Pick<KeyUsageDoc, 'count' | 'burst' | 'burst_ends'>;

const COUNTS = { projection: { count: 1, burst: 1, burst_ends: 1 } } as const;
const idOf = (slot: UsageSlot) => `${slot.key}:${slot.day}`;

/**
 * The keys' request counts, one document per key and UTC day: the only module that knows the
 * `key_usage` collection. Each admission is one conditional atomic update, so replicas sharing the
 * database never admit more than the limits allow between them.
 */
export function keyUsageRepository(connection: Connection) {
  const usage = driverCollection(keyUsageModel(connection));

  return {
    /** Counts a request in the burst window still open, if it and the day have room: the counts after it, or null. */
    countInWindow: (slot: UsageSlot, now: Date, limits: CountLimits): Promise<UsageCounts | null> =>
      usage.findOneAndUpdate(
        { _id: idOf(slot), burst_ends: { $gt: now }, burst: { $lt: limits.burst }, count: { $lt: limits.daily } },
        { $inc: { count: 1, burst: 1 } },
        { returnDocument: 'after', ...COUNTS },
      ),

    /**
     * Opens a new burst window with this request in it, if the last one has ended and the day has
     * room (the day's first request makes the document): the counts after it, or null. A window
     * still open, or a day used up, misses the filter and the upsert's insert is a duplicate key.
     */
    async openWindow(slot: UsageSlot, now: Date, limits: CountLimits): Promise<UsageCounts | null> {
      try {
        return await usage.findOneAndUpdate(
          { _id: idOf(slot), burst_ends: { $lte: now }, count: { $lt: limits.daily } },
          {
            $set: { burst: 1, burst_ends: new Date(now.getTime() + limits.burstWindowMs) },
            $inc: { count: 1 },
            $setOnInsert: { key: slot.key, user: slot.user, day: slot.day, expire: slot.expire },
          },
          { upsert: true, returnDocument: 'after', ...COUNTS },
        );
      } catch (err) {
        if (isDuplicateKey(err)) return null;
        throw err;
      }
    },

    /** The day's counts as they stand (why a request found no room). */
    counts: (slot: UsageSlot): Promise<UsageCounts | null> => usage.findOne({ _id: idOf(slot) }, COUNTS),

    /** The user's usage from `fromDay` on, newest day first, then by key. */
    ofUser: (user: number, fromDay: string): Promise<KeyUsageDoc[]> => usage.find({ user, day: { $gte: fromDay } }, { sort: { day: -1, key: 1 } }).toArray(),
    removeOfKey: async (key: number) => {
      await usage.deleteMany({ key });
    },
    removeOfUser: async (user: number) => {
      await usage.deleteMany({ user });
    },
  };
}

export type KeyUsageRepository = ReturnType<typeof keyUsageRepository>;
