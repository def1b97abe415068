import { insertTokenField } from '@lib/mongo';
import { Schema, type Connection, type Model } from 'mongoose';

export interface DomainUserDoc {
  _id: number;
  account: number;
  domain: string;
  /** The Basic-auth user name; unique across accounts so that it names one user. */
  email: string;
  name: string;
  is_admin: boolean;
  is_account_owner: boolean;
  is_disabled: boolean;
  /** SHA-256 of the API key (keys are random and long, so a fast hash is enough); null when revoked. */
  api_key_hash: string | null;
  created_time: number;
  logged_in_time: number | null;
}

const domainUserSchema = new Schema<DomainUserDoc>(
  {
    _id: { type: Number, required: true },
    ...insertTokenField,
    account: { type: Number, required: true },
    domain: { type: String, required: true },
    email: { type: String, required: true },
    name: { type: String, default: '' },
    is_admin: { type: Boolean, default: false },
    is_account_owner: { type: Boolean, default: false },
    is_disabled: { type: Boolean, default: false },
    api_key_hash: { type: String, default: null },
    created_time: { type: Number, required: true },
    logged_in_time: { type: Number, default: null },
  },
  { versionKey: false },
);
domainUserSchema.index({ email: 1 }, { unique: true }); // authentication, owner lookups by email
domainUserSchema.index({ account: 1, _id: 1 }); // GET /dev/api/users

export function domainUserModel(connection: Connection): Model<DomainUserDoc> {
  return connection.models.DomainUser ?? connection.model<DomainUserDoc>('DomainUser', domainUserSchema, 'domain_users');
}
