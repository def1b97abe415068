import { requiredFields } from '@lib/mongo';
import { Schema, type Connection, type Model } from 'mongoose';

/**
 * One key's requests on one UTC day, and its current burst window: what the quota and the rate
 * count (key-usage.repository.ts) and GET /users/me/usage shows. One document per key and day, so
 * counting a request is one atomic update of one document whatever the replica.
 */
export interface KeyUsageDoc {
  /** `<key id>:<YYYY-MM-DD>` */
  _id: string;
  key: number;
  user: number;
  /** The UTC day, `YYYY-MM-DD`. */
  day: string;
  /** Requests admitted on the day (counted against the daily quota). */
  count: number;
  /** Requests admitted in the burst window that ends at `burst_ends`. */
  burst: number;
  burst_ends: Date;
  /** When the document goes (TTL index): USAGE_KEPT_DAYS after its day. */
  expire: Date;
}

const keyUsageSchema = new Schema<KeyUsageDoc>(
  requiredFields({ _id: String, key: Number, user: Number, day: String, count: Number, burst: Number, burst_ends: Date, expire: Date }),
  { versionKey: false },
);
// GET /users/me/usage: a user's days, newest first; also the deletion of a user's usage.
keyUsageSchema.index({ user: 1, day: -1, key: 1 });
// DELETE /users/me/keys/{id}: the key's usage goes with it.
keyUsageSchema.index({ key: 1 });
keyUsageSchema.index({ expire: 1 }, { expireAfterSeconds: 0 });

export function keyUsageModel(connection: Connection): Model<KeyUsageDoc> {
  return connection.models.KeyUsage ?? connection.model<KeyUsageDoc>('KeyUsage', keyUsageSchema, 'key_usage');
}
