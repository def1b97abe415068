import { Schema, type Connection, type Model } from 'mongoose';
import type { TraceCarrier } from '@lib/http/tracing';

/**
 * - `pending`: to be sent (again) at `next_attempt_at`, once every earlier delivery of its resource
 *   to the same webhook is done;
 * - `delivered`: a 2xx answer;
 * - `failed`: the last attempt of the schedule failed, or the receiver answered 410;
 * - `cancelled`: its webhook was disabled or deleted before it was delivered.
 */
export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'cancelled';

/** One attempt, as the delivery log shows it. */
export interface DeliveryAttempt {
  at: Date;
  /** The HTTP status, or null when no answer came (timeout, refused, unreachable). */
  status: number | null;
  duration_ms: number;
  /** The answer's first bytes (STORED_RESPONSE_BYTES), as text. */
  response: string;
  /** Why the attempt failed when it got no answer, or null. */
  error: string | null;
}

/**
 * One event for one webhook: the outbox entry and its delivery record at once. Written in the
 * transaction of the change it reports (event-recorder.ts); expires RETENTION after it ends.
 */
export interface DeliveryDoc {
  /** `dlv_` + a ULID: sorts by creation time. */
  _id: string;
  account: number;
  webhook: number;
  /** `msg_` + a ULID: the `webhook-id` header, the same on every attempt and replay (the receiver's idempotency key). */
  event_id: string;
  /** `contact.created`, …, or `webhook.test`. */
  event: string;
  /** The record the event is about (`contact:123`): deliveries of one resource to one webhook go out in `seq` order. Null for test events and replays. */
  resource: string | null;
  /** The resource's event number, in the order the changes were committed. */
  seq: number;
  /** The request body, `{"eventName":…,"eventData":…}`, signed as it is. */
  body: string;
  /** The trace context of the request that made the change: the delivery's span is its child. */
  trace: TraceCarrier | null;
  state: DeliveryState;
  created_at: Date;
  next_attempt_at: Date | null;
  attempts: number;
  /** The last MAX_LOGGED_ATTEMPTS attempts, oldest first. */
  log: DeliveryAttempt[];
  /** Why it failed or was cancelled. */
  reason: string | null;
  /** The delivery this one replays. */
  replay_of: string | null;
  /** When the TTL index deletes it: set once it is no longer pending. */
  expires_at: Date | null;
}

const attemptSchema = new Schema<DeliveryAttempt>(
  { at: { type: Date, required: true }, status: { type: Number, default: null }, duration_ms: { type: Number, required: true }, response: { type: String, default: '' }, error: { type: String, default: null } },
  { _id: false },
);

const deliverySchema = new Schema<DeliveryDoc>(
  {
    _id: { type: String, required: true },
    account: { type: Number, required: true },
    webhook: { type: Number, required: true },
    event_id: { type: String, required: true },
    event: { type: String, required: true },
    resource: { type: String, default: null },
    seq: { type: Number, required: true },
    body: { type: String, required: true },
    trace: { type: Schema.Types.Mixed, default: null },
    state: { type: String, required: true, enum: ['pending', 'delivered', 'failed', 'cancelled'] },
    created_at: { type: Date, required: true },
    next_attempt_at: { type: Date, default: null },
    attempts: { type: Number, default: 0 },
    log: { type: [attemptSchema], default: [] },
    reason: { type: String, default: null },
    replay_of: { type: String, default: null },
    expires_at: { type: Date, default: null },
  },
  { versionKey: false },
);
deliverySchema.index({ state: 1, next_attempt_at: 1, webhook: 1 }); // the worker: pending deliveries due soonest (webhooks skipped on the index's keys)
deliverySchema.index({ webhook: 1, resource: 1, state: 1, seq: 1 }); // the worker: the first pending delivery of a resource to a webhook
deliverySchema.index({ webhook: 1, state: 1 }); // a webhook's pending deliveries: the outbox cap, cancelling them when it is disabled
deliverySchema.index({ account: 1, state: 1 }); // an account's pending deliveries (its limit)
deliverySchema.index({ account: 1, webhook: 1, _id: -1 }); // a webhook's delivery log, newest first
deliverySchema.index({ expires_at: 1 }, { expireAfterSeconds: 0 }); // ended deliveries expire (pending ones have none)

export function deliveryModel(connection: Connection): Model<DeliveryDoc> {
  return connection.models.WebhookDelivery ?? connection.model<DeliveryDoc>('WebhookDelivery', deliverySchema, 'webhook_deliveries');
}

/** The last event number of one resource (`<account>:contact:123`), taken in the transaction of each event. */
export interface EventSequenceDoc {
  _id: string;
  n: number;
  at: Date;
}

/** How long a resource's event number is kept after its last event: far past any pending delivery's life (the schedule is 3 days). */
export const SEQUENCE_KEEP_SECONDS = 30 * 24 * 3600;

const sequenceSchema = new Schema<EventSequenceDoc>({ _id: { type: String, required: true }, n: { type: Number, required: true }, at: { type: Date, required: true } }, { versionKey: false });
sequenceSchema.index({ at: 1 }, { expireAfterSeconds: SEQUENCE_KEEP_SECONDS }); // expiry of resources without events for a month

export function eventSequenceModel(connection: Connection): Model<EventSequenceDoc> {
  return connection.models.WebhookEventSequence ?? connection.model<EventSequenceDoc>('WebhookEventSequence', sequenceSchema, 'webhook_event_sequences');
}
