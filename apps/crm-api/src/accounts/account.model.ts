import { insertTokenField } from '@lib/mongo';
import { Schema, type Connection, type Model } from 'mongoose';

/** A slot of the contact limit held by a create in flight (see contacts/contact-slots.ts), keyed by its token. */
export interface ContactReservation {
  /** The id the create stores its contact under. */
  contact: number;
  /** Epoch ms after which the reservation counts as left by a dead process. */
  until: number;
}

export interface AccountDoc {
  _id: number;
  domain: string;
  /** Contacts and companies held, plus the slots reserved by creates in flight; reserved atomically against the limit before each insert. */
  contact_count: number;
  /** The reservations counted in contact_count whose contact is not stored yet, by token (a map: set and unset atomically with the count). */
  contact_reservations?: Record<string, ContactReservation>;
  created_time: number;
}


const accountSchema = new Schema<AccountDoc>(
  {
    _id: { type: Number, required: true },
    ...insertTokenField,
    domain: { type: String, required: true },
    contact_count: { type: Number, required: true, default: 0 },
    contact_reservations: { type: Schema.Types.Mixed },
    created_time: { type: Number, required: true },
  },
  { versionKey: false },
);
accountSchema.index({ domain: 1 }, { unique: true }); // account by domain (bootstrap, admin command)

export function accountModel(connection: Connection): Model<AccountDoc> {
  return connection.models.Account ?? connection.model<AccountDoc>('Account', accountSchema, 'accounts');
}
