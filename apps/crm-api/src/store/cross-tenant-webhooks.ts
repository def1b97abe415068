/**
 * REVIEW NOTE — the delivery worker's cross-tenant door (beside cross-tenant.ts, under the same
 * rule). The delivery worker serves every account from one queue: it reads due deliveries across
 * accounts, reads and disables the webhook a delivery goes to, writes each attempt's outcome and
 * cancels deliveries whose webhook is gone, and counts pending deliveries (per webhook for the
 * outbox cap, in all for the depth metric). Everything an account does with its webhooks (the
 * management API, recording events) goes through its own store instead (`store.webhooks`,
 * `store.outbox`).
 *
 * What it may do: only these calls, each keyed by a value read from a stored delivery or webhook
 * (a delivery id, a webhook id), or by time (what is due). What it must not do: take an account, a
 * webhook or a delivery id from a caller's input, answer a request with what it reads, or hand out
 * a model, a collection or the connection. Its callers are the worker and the disabling
 * (webhooks/delivery-worker.ts, webhooks/webhook-disabling.ts), wired in wiring.ts.
 *
 * Rule: every function here is reviewed for tenant isolation when it is added or changed, and a
 * change to this file names that review in its commit.
 */
import { assertTransactions, driverCollection, revocationLog, tryLease, type LeaseOptions } from '@lib/mongo';
import type { Connection } from 'mongoose';
import { deliveryModel, type DeliveryAttempt, type DeliveryDoc, type DeliveryState } from '../webhooks/webhook-delivery.model';
import { webhookModel, type WebhookDoc } from '../webhooks/webhook.model';
import { MAX_LOGGED_ATTEMPTS } from '../webhooks/webhook-settings';

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

const nowSeconds = () => Math.floor(Date.now() / 1000);

function workerWebhooks(connection: Connection) {
  const Webhook = webhookModel(connection);
  return {
    /** The webhook a delivery goes to. */
    byId: (id: number) => Webhook.findById(id).lean<WebhookDoc>(),
    /** Disables an enabled webhook with the reason; the webhook after, or null when it was not enabled (or is gone). */
    disable: (id: number, reason: string) =>
      Webhook.findOneAndUpdate({ _id: id, enabled: true }, { $set: { enabled: false, disabled_reason: reason, disabled_at: new Date(), updated_time: nowSeconds() } }, { returnDocument: 'after' }).lean<WebhookDoc>(),
  };
}

function workerDeliveries(connection: Connection) {
  const deliveries = driverCollection(deliveryModel(connection));
  return {
    /** Pending deliveries due at `now`, soonest first, but those of the webhooks `skipped`. */
    due: (now: Date, limit: number, skipped: readonly number[] = []): Promise<DueDelivery[]> =>
      deliveries
        .find(
          { state: 'pending', next_attempt_at: { $lte: now }, ...(skipped.length && { webhook: { $nin: [...skipped] } }) },
          { projection: { webhook: 1, resource: 1, seq: 1, next_attempt_at: 1 } },
        )
        .sort({ state: 1, next_attempt_at: 1 })
        .limit(limit)
        .toArray() as Promise<DueDelivery[]>,

    /** The first pending delivery of a resource to a webhook: the only one of them that may be sent. */
    firstPending: (webhook: number, resource: string) => deliveries.find({ webhook, resource, state: 'pending' }).sort({ seq: 1 }).limit(1).next(),

    get: (id: string) => deliveries.findOne({ _id: id }),

    /**
     * Writes an attempt's outcome if the delivery is still as the worker read it (pending, after
     * as many attempts): a worker that lost its claim (stalled past its lease) finds it
     * changed and writes nothing. True when written.
     */
    async recordAttempt(delivery: Pick<DeliveryDoc, '_id' | 'attempts' | 'log'>, outcome: AttemptOutcome): Promise<boolean> {
      // the log as read, plus this attempt: the compare-and-set on `attempts` makes it the stored one
      const log = [...delivery.log, outcome.attempt].slice(-MAX_LOGGED_ATTEMPTS);
      const result = await deliveries.updateOne(
        { _id: delivery._id, state: 'pending', attempts: delivery.attempts },
        { $set: { state: outcome.state, next_attempt_at: outcome.nextAttemptAt, reason: outcome.reason, expires_at: outcome.expiresAt, attempts: delivery.attempts + 1, log } },
      );
      return result.modifiedCount === 1;
    },

    /** Moves a pending delivery's next attempt to `at` (it waits behind an earlier delivery of its resource). */
    defer: (id: string, at: Date) => deliveries.updateOne({ _id: id, state: 'pending', next_attempt_at: { $lt: at } }, { $set: { next_attempt_at: at } }),

    /** Ends one delivery without an attempt (its webhook is gone or disabled). */
    cancel: (id: string, reason: string, expiresAt: Date) =>
      deliveries.updateOne({ _id: id, state: 'pending' }, { $set: { state: 'cancelled', reason, next_attempt_at: null, expires_at: expiresAt } }),

    /** Ends every pending delivery of a webhook (disabled by the service). */
    cancelPending: (webhook: number, reason: string, expiresAt: Date) =>
      deliveries.updateMany({ webhook, state: 'pending' }, { $set: { state: 'cancelled', reason, next_attempt_at: null, expires_at: expiresAt } }),

    /** Pending deliveries of a webhook, counted up to `upTo` (an index range scan of that length at most). */
    countPending: (webhook: number, upTo: number) => deliveries.countDocuments({ webhook, state: 'pending' }, { limit: upTo }),

    /** Every pending delivery (the outbox depth metric), counted up to `upTo`. */
    depth: (upTo: number) => deliveries.countDocuments({ state: 'pending' }, { limit: upTo }),
  };
}

/** What the delivery worker and the disabling reach across accounts. */
export function crossTenantWebhooks(connection: Connection) {
  return {
    webhooks: workerWebhooks(connection),
    deliveries: workerDeliveries(connection),
    /** A delivery partition's lease (libs/mongo lease.ts). */
    lease: (partition: string, options: LeaseOptions) => tryLease(connection, partition, options),
    /** Where changes of subscriptions are published to every replica. */
    revocations: revocationLog(connection),
    /** Stops start-up on a database without transactions (events are recorded in the transaction of their change). */
    assertTransactions: () =>
      assertTransactions(connection, () => webhookModel(connection).countDocuments({ _id: -1 }).exec(), 'crm-api records each webhook event in the transaction of its change'),
  };
}

export type CrossTenantWebhooks = ReturnType<typeof crossTenantWebhooks>;
export type WorkerWebhooks = CrossTenantWebhooks['webhooks'];
export type WorkerDeliveries = CrossTenantWebhooks['deliveries'];
