import type { Model, mongo } from 'mongoose';
import type { DeliveryDoc, EventSequenceDoc } from '../webhooks/webhook-delivery.model';
import type { AccountId } from './account-id';

/**
 * One account's webhook deliveries (the outbox and the delivery log at once) and the event numbers
 * of its records: every filter holds the account, every event number's key starts with it
 * (`<account>:contact:123`), every inserted delivery is written with it. Calls made inside the
 * account store's `transaction` are part of it.
 */
export function accountOutbox(deliveries: mongo.Collection<DeliveryDoc>, sequences: Model<EventSequenceDoc>, account: AccountId) {
  return {
    /**
     * The next event number of each resource (`contact:123`), in the caller's transaction: two
     * transactions numbering the same resource conflict on its document, so numbers follow the
     * order the transactions commit in. Also the account's lock for webhook creation (`webhooks`).
     */
    async nextSeqs(resources: readonly string[]): Promise<Map<string, number>> {
      const numbers = new Map<string, number>();
      const at = new Date();
      for (const resource of resources) {
        if (numbers.has(resource)) continue;
        const doc = await sequences.findOneAndUpdate({ _id: `${account}:${resource}` }, { $inc: { n: 1 }, $set: { at } }, { upsert: true, returnDocument: 'after' }).lean<EventSequenceDoc>();
        if (!doc) throw new Error(`no event number for ${resource}`); // an upsert always answers one
        numbers.set(resource, doc.n);
      }
      return numbers;
    },

    /** Stores deliveries of this account (their account is this one, whatever they held). */
    insert: async (docs: Array<Omit<DeliveryDoc, 'account'>>) => {
      if (docs.length) await deliveries.insertMany(docs.map((doc) => ({ ...doc, account })));
    },

    /** The account's pending deliveries, counted up to `upTo`. */
    countPending: (upTo: number) => deliveries.countDocuments({ account, state: 'pending' }, { limit: upTo }),

    /** One delivery of the account's webhook. */
    get: (webhook: number, id: string) => deliveries.findOne({ _id: id, account, webhook }),

    /** The webhook's deliveries, newest first, before the delivery id `beforeId`, `limit` at most. */
    list: (webhook: number, limit: number, beforeId?: string) =>
      deliveries
        .find({ account, webhook, ...(beforeId !== undefined && { _id: { $lt: beforeId } }) })
        .sort({ account: 1, webhook: 1, _id: -1 })
        .limit(limit)
        .toArray(),

    /** Ends every pending delivery of the account's webhook (disabled or deleted by the account). */
    cancelPending: (webhook: number, reason: string, expiresAt: Date) =>
      deliveries.updateMany({ account, webhook, state: 'pending' }, { $set: { state: 'cancelled', reason, next_attempt_at: null, expires_at: expiresAt } }),
  };
}

export type AccountOutbox = ReturnType<typeof accountOutbox>;
