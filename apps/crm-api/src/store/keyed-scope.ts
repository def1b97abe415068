import type { Model, mongo, UpdateQuery } from 'mongoose';
import type { AccountId } from './account-id';

/** A filter on the other fields of a keyed record: its `_id` is made by the scope. */
export type KeyedFilter = Record<string, unknown> & { _id?: never };

/**
 * A collection whose `_id` is `<account>:<key>` (the person emails claimed per account): the
 * account is part of every id the scope makes, so no call names another account's record. Every
 * key of the account sorts from `<account>:` to before `<account>;` (`;` follows `:`).
 */
export function keyedScope<T extends { _id: string }>(model: Model<T>, driver: mongo.Collection<T>, account: AccountId) {
  const idOf = (key: string) => `${account}:${key}`;
  const allOfAccount = { $gte: `${account}:`, $lt: `${account};` };
  return {
    /** Inserts one record per key in one unordered command (each insert stands alone); throws the driver's bulk error. */
    insertMany: (records: Array<{ key: string; fields: Omit<T, '_id'> }>) =>
      driver.insertMany(
        records.map(({ key, fields }) => ({ ...fields, _id: idOf(key) }) as mongo.OptionalUnlessRequiredId<T>),
        { ordered: false },
      ),
    get: (key: string) => model.findById(idOf(key)).lean<T>(),
    updateOne: (key: string, filter: KeyedFilter, update: { $set: Partial<Omit<T, '_id'>> }) => model.updateOne({ ...filter, _id: idOf(key) }, update as UpdateQuery<T>),
    deleteMany: (keys: string[], filter: KeyedFilter) => model.deleteMany({ ...filter, _id: { $in: keys.map(idOf) } }),
    /** Deletes the account's records matching `filter`, whatever their key. */
    deleteAll: (filter: KeyedFilter) => model.deleteMany({ ...filter, _id: allOfAccount }),
  };
}

export type KeyedScope<T extends { _id: string }> = ReturnType<typeof keyedScope<T>>;
