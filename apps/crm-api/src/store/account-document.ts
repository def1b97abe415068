import type { mongo } from 'mongoose';
import type { AccountDoc } from '../accounts/account.model';
import type { AccountId } from './account-id';

/** A condition on the account's own document: never its `_id`, which the scope sets. */
export type OwnFilter = mongo.Filter<AccountDoc> & { _id?: never };

/**
 * The account's own document (its contact count and slot reservations, contacts/contact-slots.ts),
 * on the driver: every call is on `{ _id: <this account> }`, so none reaches another account's.
 */
export function accountDocument(accounts: mongo.Collection<AccountDoc>, account: AccountId) {
  const self = (filter: OwnFilter = {}): mongo.Filter<AccountDoc> => ({ ...filter, _id: account });
  return {
    findOne: (projection: mongo.FindOptions['projection']) => accounts.findOne(self(), { projection }),
    findOneAndUpdate: (filter: OwnFilter, update: mongo.UpdateFilter<AccountDoc>, options: { projection: mongo.FindOptions['projection'] }) =>
      accounts.findOneAndUpdate(self(filter), update, { returnDocument: 'after', ...options }),
    updateOne: (filter: OwnFilter, update: mongo.UpdateFilter<AccountDoc>) => accounts.updateOne(self(filter), update),
  };
}

export type AccountDocument = ReturnType<typeof accountDocument>;
