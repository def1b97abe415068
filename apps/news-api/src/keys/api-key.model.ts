import { insertTokenField, requiredFields } from '@lib/mongo';
import { Schema, type Connection, type Model } from 'mongoose';

/** An API key of a user: its name and the SHA-256 of the key, never the key itself. */
export interface ApiKeyDoc {
  /** A time-ordered random id (it says when the key was made, nothing of other users' keys); part of the key. */
  _id: number;
  user: number;
  name: string;
  /** 0 … KEYS_PER_USER − 1, unique per user: the database itself holds a user to that many keys, whatever runs at once. */
  slot: number;
  /** SHA-256 of the whole key (`nk_<id>_<secret>`), base64url. */
  hash: string;
  created_at: Date;
}

const apiKeySchema = new Schema<ApiKeyDoc>(
  { ...requiredFields({ _id: Number, user: Number, name: String, slot: Number, hash: String, created_at: Date }), ...insertTokenField },
  { versionKey: false },
);
// GET /users/me/keys (a user's keys by slot) and the keys-per-user bound: one key per slot of a user.
apiKeySchema.index({ user: 1, slot: 1 }, { unique: true });

export function apiKeyModel(connection: Connection): Model<ApiKeyDoc> {
  return connection.models.ApiKey ?? connection.model<ApiKeyDoc>('ApiKey', apiKeySchema, 'api_keys');
}
