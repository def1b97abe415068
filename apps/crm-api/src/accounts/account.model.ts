import { insertTokenField } from '@lib/mongo';
import { Schema, type Connection, type Model } from 'mongoose';

export interface AccountDoc {
  _id: number;
  domain: string;
  /** Contacts and companies held; reserved atomically against the limit before each insert. */
  contact_count: number;
  created_time: number;
}

const accountSchema = new Schema<AccountDoc>(
  {
    _id: { type: Number, required: true },
    ...insertTokenField,
    domain: { type: String, required: true },
    contact_count: { type: Number, required: true, default: 0 },
    created_time: { type: Number, required: true },
  },
  { versionKey: false },
);
accountSchema.index({ domain: 1 }, { unique: true }); // account by domain (bootstrap, admin command)

export function accountModel(connection: Connection): Model<AccountDoc> {
  return connection.models.Account ?? connection.model<AccountDoc>('Account', accountSchema, 'accounts');
}
