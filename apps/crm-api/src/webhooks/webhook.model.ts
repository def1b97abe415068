import { insertTokenField } from '@lib/mongo';
import { Schema, type Connection, type Model } from 'mongoose';

/** A signing secret (`whsec_…`); a rotated-out one signs on until `expires_at`. */
export interface WebhookSecret {
  key: string;
  created_at: Date;
  /** Null for the current secret; for a previous one, the end of the rotation window. */
  expires_at: Date | null;
}

/** A receiver of one account's events. */
export interface WebhookDoc {
  _id: number;
  account: number;
  url: string;
  /** Subscription patterns (webhook-events.ts): event names, `object.*`, `*`. */
  events: string[];
  description: string;
  /** The current secret last; older ones only until their window ends (at most MAX_SECRETS). */
  secrets: WebhookSecret[];
  enabled: boolean;
  /** Why the service disabled it (410, the retry schedule run out, the outbox cap), or null. */
  disabled_reason: string | null;
  disabled_at: Date | null;
  /** Bumped by every change of the secrets: a rotation is a compare-and-set on it. */
  rev: number;
  /** Epoch seconds, like every crm record. */
  created_time: number;
  updated_time: number;
}

const secretSchema = new Schema<WebhookSecret>({ key: { type: String, required: true }, created_at: { type: Date, required: true }, expires_at: { type: Date, default: null } }, { _id: false });

const webhookSchema = new Schema<WebhookDoc>(
  {
    _id: { type: Number, required: true },
    ...insertTokenField,
    account: { type: Number, required: true },
    url: { type: String, required: true },
    events: { type: [String], required: true },
    description: { type: String, default: '' },
    secrets: { type: [secretSchema], required: true },
    enabled: { type: Boolean, required: true },
    disabled_reason: { type: String, default: null },
    disabled_at: { type: Date, default: null },
    rev: { type: Number, default: 0 },
    created_time: { type: Number, required: true },
    updated_time: { type: Number, required: true },
  },
  { versionKey: false },
);
webhookSchema.index({ account: 1, _id: 1 }); // an account's webhooks (list by id, get, count), its enabled ones (the subscription cache)

export function webhookModel(connection: Connection): Model<WebhookDoc> {
  return connection.models.Webhook ?? connection.model<WebhookDoc>('Webhook', webhookSchema, 'webhooks');
}
