import { driverCollection, insertWithSequenceId, removeFromLists, timeOrderedIds, updateByRevision, type SequenceInsertOptions } from '@lib/mongo';
import { collectionSource, modelSource, type PageReader, type PageSource, type SortKey } from '@lib/paging';
import type { Model, mongo, UpdateQuery } from 'mongoose';
import type { CrmPager, Page, SortedPageParams } from '../paging';

/** A record of one account (the tenant key of every CRM collection but accounts and users). */
export interface AccountRecord {
  _id: number;
  account: number;
}

/**
 * A filter on the records of one account, without the account: the scope adds it to every query,
 * and a filter cannot name one, so no query can reach another account's records.
 */
export type ScopedFilter = Record<string, unknown> & { account?: never };
/** A filter that holds its account; only accountScope makes one. */
export type AccountFilter = Record<string, unknown> & { account: number };
/** An update that cannot move a record to another account. */
export type ScopedUpdate = Record<string, unknown> & { $set?: Record<string, unknown> & { account?: never }; account?: never };

/** New values of a record's fields: never its id or account. */
export type Changes<T> = Partial<Omit<T, '_id' | 'account'>>;

/**
 * New ids of one account's records of `model`: time-ordered random ids (libs/mongo
 * time-ordered-ids.ts), growing in creation order within the account on one replica, and made
 * without a database round trip. They reveal when a record was made (as its `created_time` does),
 * never how many records another account made: no counter is shared between accounts. Records
 * stored before (sequential ids from the `counters` collection, 1, 2, 3…) keep their ids; every new
 * id is above them (about 2^49 in 2026).
 */
export const accountIds = (model: Pick<Model<unknown>, 'db' | 'collection'>, account: number) => timeOrderedIds(model.db, `${model.collection.collectionName}:${account}`);

/** Builds a repository for one account; services receive these, never models. */
export type ForAccount<R> = (account: number) => R;

type PageParams = { page_size: number; cursor?: string };

/**
 * The only way the repositories reach a collection of account records: every filter, update,
 * insert and page gets the account here. Reads return plain objects (`lean()`, or the driver where
 * a call site is hot).
 */
export function accountScope<T extends AccountRecord>(model: Model<T>, account: number) {
  const where = (filter: ScopedFilter = {}): AccountFilter => ({ ...filter, account });
  const byId = (id: number): AccountFilter => ({ _id: id, account });
  const driver = () => driverCollection(model);
  const lean = modelSource(model);
  const raw = (): PageSource<T> => collectionSource(driver()) as unknown as PageSource<T>;
  return {
    find: <R = T>(filter: ScopedFilter = {}, projection?: Record<string, 0 | 1>) => model.find(where(filter), projection).lean<R[]>(),
    findOne: (filter: ScopedFilter) => model.findOne(where(filter)).lean<T>(),
    get: (id: number) => model.findOne(byId(id)).lean<T>(),
    exists: async (filter: ScopedFilter) => (await model.exists(where(filter))) !== null,
    count: (filter: ScopedFilter = {}) => model.countDocuments(where(filter)),
    updateOne: (filter: ScopedFilter, update: ScopedUpdate) => model.updateOne(where(filter), update as UpdateQuery<T>),
    updateMany: (filter: ScopedFilter, update: ScopedUpdate) => model.updateMany(where(filter), update as UpdateQuery<T>),
    findOneAndUpdate: (filter: ScopedFilter, update: ScopedUpdate, returnDocument: 'before' | 'after') =>
      model.findOneAndUpdate(where(filter), update as UpdateQuery<T>, { returnDocument }).lean<T>(),
    deleteOne: (filter: ScopedFilter) => model.deleteOne(where(filter)),
    deleteMany: (filter: ScopedFilter) => model.deleteMany(where(filter)),

    /** Hot reads straight to the driver: the same plain documents as `lean()`, without a mongoose Query. */
    driverFind: <R extends mongo.Document = T>(filter: ScopedFilter, options?: mongo.FindOptions) =>
      driver().find<R>(where(filter) as mongo.Filter<T>, options).toArray(),
    driverFindOne: (filter: ScopedFilter, options?: mongo.FindOptions) => driver().findOne(where(filter) as mongo.Filter<T>, options) as Promise<T | null>,

    /**
     * Inserts `build(id)` in this account under a new time-ordered random id (accountIds): ids that
     * count nothing of other accounts.
     */
    insert: (build: (id: number) => Omit<T, 'account'> | Promise<Omit<T, 'account'>>, options?: SequenceInsertOptions<T>) =>
      // the server stores `_id` first whatever the order: the account follows it
      insertWithSequenceId(model, accountIds(model, account), async (id) => ({ account, ...(await build(id)) }) as T, options),

    /** A page of the records matching `filter` (see paging.ts), its cursor bound to `scope`. */
    page: (pager: CrmPager, filter: ScopedFilter, params: PageParams, scope: string, order?: SortKey[]): Promise<Page<T>> =>
      pager.page(lean, where(filter), params, scope, order),
    sorted: (pager: CrmPager, filter: ScopedFilter, params: SortedPageParams, scope: string): Promise<Page<T>> =>
      pager.sorted(lean, where(filter), params, scope),
    /**
     * `sorted` straight on the driver, for hot lists whose filter holds values of the stored types
     * already (numbers, enum strings): no mongoose Query is built or cast. The cursor's sort values
     * are the stored ones, as read.
     */
    driverSorted: (pager: CrmPager, filter: ScopedFilter, params: SortedPageParams, scope: string): Promise<Page<T>> =>
      pager.sorted(raw(), where(filter), params, scope),
    /** The first `size` records matching `filter` in creation order, on the driver, uncounted (a bounded view, not a page). */
    driverFirst: (pager: CrmPager, filter: ScopedFilter, size: number): PageReader<T> => pager.first(raw(), where(filter), size),

    /** Takes `values` out of the id list `field` of the records matching `filter`, each record atomically. */
    removeFromLists: (filter: ScopedFilter, field: string, values: number[], alsoSet?: Record<string, unknown>) =>
      removeFromLists(model, where(filter), field, values, alsoSet),

    /** A compare-and-set edit of one record (see revision-update.ts). */
    updateByRevision: <R extends T & { rev: number }>(id: number, changesFor: (current: R) => Record<string, unknown>) =>
      updateByRevision(model as unknown as Model<R>, { _id: id, account }, changesFor),
  };
}
