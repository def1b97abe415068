import { driverCollection } from '@lib/mongo';
import type { ClientSession, Connection } from 'mongoose';
import { deliveryModel, eventSequenceModel, type DeliveryAttempt, type DeliveryDoc, type DeliveryState } from './webhook-delivery.model';
import { MAX_LOGGED_ATTEMPTS } from './webhook-settings';

/** What the worker reads of a due delivery to pick its partition. */
export type DueDelivery = Pick<DeliveryDoc, '_id' | 'webhook' | 'resource' | 'seq' | 'next_attempt_at'>;

/** An attempt's outcome as written: the next state, and when it is pending again, its time. */
export interface AttemptOutcome {
  attempt: DeliveryAttempt;
  state: DeliveryState;
  nextAttemptAt: Date | null;
  reason: string | null;
  expiresAt: Date | null;
}

/**
 * The deliveries collection (the outbox and the delivery log at once) and the event numbers of
 * resources. Functions taking an account reach only that account's deliveries (the management API's);
 * the others serve the recorder and the worker, which work across accounts.
 */
export function deliveryRepository(connection: Connection) {
  const Delivery = deliveryModel(connection);
  const Sequence = eventSequenceModel(connection);
  const deliveries = () => driverCollection(Delivery);

  return {
    /**
     * The next event number of each resource (`<account>:contact:123` keys), in the session's
     * transaction: two transactions numbering the same resource conflict on its document, so numbers
     * follow the order the transactions commit in.
     */
    async nextSeqs(keys: readonly string[], session: ClientSession): Promise<Map<string, number>> {
      const numbers = new Map<string, number>();
      const at = new Date();
      for (const key of keys) {
        if (numbers.has(key)) continue;
        const doc = await Sequence.findOneAndUpdate({ _id: key }, { $inc: { n: 1 }, $set: { at } }, { upsert: true, returnDocument: 'after', session }).lean();
        if (!doc) throw new Error(`no event number for ${key}`); // an upsert always answers one
        numbers.set(key, doc.n);
      }
      return numbers;
    },

    insert: async (docs: DeliveryDoc[], session?: ClientSession) => {
      if (docs.length) await deliveries().insertMany(docs, { session });
    },

    /** Pending deliveries due at `now`, soonest first, but those of the webhooks `skipped`. */
    due: (now: Date, limit: number, skipped: readonly number[] = []): Promise<DueDelivery[]> =>
      deliveries()
        .find(
          { state: 'pending', next_attempt_at: { $lte: now }, ...(skipped.length && { webhook: { $nin: [...skipped] } }) },
          { projection: { webhook: 1, resource: 1, seq: 1, next_attempt_at: 1 } },
        )
        .sort({ state: 1, next_attempt_at: 1 })
        .limit(limit)
        .toArray() as Promise<DueDelivery[]>,

    /** The first pending delivery of a resource to a webhook: the only one of them that may be sent. */
    firstPending: (webhook: number, resource: string) => deliveries().find({ webhook, resource, state: 'pending' }).sort({ seq: 1 }).limit(1).next(),

    get: (id: string) => deliveries().findOne({ _id: id }),

    /**
     * Writes an attempt's outcome if the delivery is still as the worker read it (pending, after
     * as many attempts): a worker that lost its claim (stalled past its lease) finds it
     * changed and writes nothing. True when written.
     */
    async recordAttempt(delivery: Pick<DeliveryDoc, '_id' | 'attempts' | 'log'>, outcome: AttemptOutcome): Promise<boolean> {
      // the log as read, plus this attempt: the compare-and-set on `attempts` makes it the stored one
      const log = [...delivery.log, outcome.attempt].slice(-MAX_LOGGED_ATTEMPTS);
      const result = await deliveries().updateOne(
        { _id: delivery._id, state: 'pending', attempts: delivery.attempts },
        { $set: { state: outcome.state, next_attempt_at: outcome.nextAttemptAt, reason: outcome.reason, expires_at: outcome.expiresAt, attempts: delivery.attempts + 1, log } },
      );
      return result.modifiedCount === 1;
    },

    /** Moves a pending delivery's next attempt to `at` (it waits behind an earlier delivery of its resource). */
    defer: (id: string, at: Date) => deliveries().updateOne({ _id: id, state: 'pending', next_attempt_at: { $lt: at } }, { $set: { next_attempt_at: at } }),

    /** Ends one delivery without an attempt (its webhook is gone or disabled). */
    cancel: (id: string, reason: string, expiresAt: Date) =>
      deliveries().updateOne({ _id: id, state: 'pending' }, { $set: { state: 'cancelled', reason, next_attempt_at: null, expires_at: expiresAt } }),

    /** Ends every pending delivery of a webhook (disabled or deleted). */
    cancelPending: (webhook: number, reason: string, expiresAt: Date) =>
      deliveries().updateMany({ webhook, state: 'pending' }, { $set: { state: 'cancelled', reason, next_attempt_at: null, expires_at: expiresAt } }),

    /** Pending deliveries of a webhook, counted up to `upTo` (an index range scan of that length at most). */
    countPending: (webhook: number, upTo: number) => deliveries().countDocuments({ webhook, state: 'pending' }, { limit: upTo }),

    countPendingOfAccount: (account: number, upTo: number) => deliveries().countDocuments({ account, state: 'pending' }, { limit: upTo }),

    /** Every pending delivery (the outbox depth metric), counted up to `upTo`. */
    depth: (upTo: number) => deliveries().countDocuments({ state: 'pending' }, { limit: upTo }),

    /** One delivery of the account's webhook. */
    getOf: (account: number, webhook: number, id: string) => deliveries().findOne({ _id: id, account, webhook }),

    /** The webhook's deliveries, newest first, before the delivery id `beforeId`, `limit` at most. */
    listOf: (account: number, webhook: number, limit: number, beforeId?: string) =>
      deliveries()
        .find({ account, webhook, ...(beforeId !== undefined && { _id: { $lt: beforeId } }) })
        .sort({ account: 1, webhook: 1, _id: -1 })
        .limit(limit)
        .toArray(),
  };
}

export type DeliveryRepository = ReturnType<typeof deliveryRepository>;
