import { ambientSession, insertWithSequenceId, isDuplicateKey, removeFromLists, timeOrderedIds, updateByRevision } from '@lib/mongo';
import type { PageReader, PageSource, SortKey } from '@lib/paging';
import type { Model, mongo, UpdateQuery } from 'mongoose';
import type { CrmPager, Page, PageParams, SortedPageParams } from '../paging';
import type { AccountId } from './account-id';

/** A record of one account (the tenant key of every CRM collection but accounts and their claims). */
export interface AccountRecord {
  _id: number;
  account: number;
}

/** Values that never name the account: the scope adds it, so no caller can. */
type NoAccount = { account?: never };

/**
 * A filter on the records of one account, without the account: the scope adds it to every query
 * (last, so it always wins), and a filter cannot name one, so no query can reach another account's
 * records.
 */
export type ScopedFilter = Record<string, unknown> & NoAccount & { $and?: ScopedFilter[]; $or?: ScopedFilter[]; $nor?: ScopedFilter[] };
/** A filter that holds its account; only the scope makes one. */
type AccountFilter = Record<string, unknown> & { account: AccountId };
/** Field values to set on records of the account: never its account. */
export type ScopedSet = Record<string, unknown> & NoAccount;
/** An update that cannot move a record to another account: no operator names `account`. */
export type ScopedUpdate = { [operator in `$${string}`]?: ScopedSet } & NoAccount;

/** New values of a record's fields: never its id or account (a type that holds either does not fit). */
export type Changes<T> = Partial<Omit<T, '_id' | 'account'>> & { _id?: never; account?: never };

/** How a collection is read and written, made once per model by the store (crm-store.ts). */
export interface ModelAccess<T> {
  model: Model<T>;
  /** The driver's collection with the connection's maxTimeMS on reads (driverCollection). */
  driver: mongo.Collection<T & mongo.Document>;
  /** Pages of lean mongoose reads (casting). */
  lean: PageSource<T>;
  /** Pages straight on the driver, for hot lists whose filter holds stored types already. */
  raw: PageSource<T>;
  collectionName: string;
}

export interface InsertOptions<T> {
  /** Straight to the driver (`insertOne`): the document is complete and checked; no mongoose document is built. */
  driver?: boolean;
  /** Runs right before each insert is sent (driver inserts). */
  beforeInsert?: () => void;
  /** Undoes what `build` claimed for an attempt whose id turned out taken (see insertWithSequenceId). */
  abandon?: (doc: T) => Promise<void>;
}

/**
 * The only way the repositories reach a collection of account records: every filter, update,
 * insert and page gets the account here, and every page's cursor is bound to
 * `<collection>:<account>:<key>`, the list's key given by the repository, so no cursor of one
 * account or list opens another. Reads return plain objects (`lean()`, or the driver where a call
 * site is hot).
 */
export function accountScope<T extends AccountRecord>(access: ModelAccess<T>, account: AccountId, pager: CrmPager) {
  const { model, driver } = access;
  const where = (filter: ScopedFilter = {}): AccountFilter => ({ ...filter, account });
  const byId = (id: number): AccountFilter => ({ _id: id, account });
  const scopeOf = (key: string) => `${access.collectionName}:${account}:${key}`;
  /**
   * New ids of the account's records: time-ordered random ids (libs/mongo time-ordered-ids.ts),
   * growing in creation order within the account on one replica, made without a database round
   * trip. They reveal when a record was made (as its `created_time` does), never how many records
   * another account made. Records stored before (sequential ids, 1, 2, 3…) keep theirs; every new
   * id is above them (about 2^49 in 2026).
   */
  const ids = () => timeOrderedIds(model.db, `${access.collectionName}:${account}`);

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
    /** Deletes the record matching `filter`; the record deleted, or null when none was (also when another request deleted it first). */
    async takeOne(filter: ScopedFilter): Promise<T | null> {
      const doc = await model.findOne(where(filter)).lean<T>();
      if (!doc) return null;
      return (await model.deleteOne({ _id: doc._id, account })).deletedCount > 0 ? doc : null;
    },
    deleteMany: (filter: ScopedFilter) => model.deleteMany(where(filter)),

    /** Whether the caller runs in a transaction (store.transaction): its reads see the snapshot taken when it began. */
    inTransaction: () => ambientSession(model.db.base) !== undefined,

    /** Hot reads straight to the driver: the same plain documents as `lean()`, without a mongoose Query. */
    driverFind: <R extends mongo.Document = T>(filter: ScopedFilter, options?: mongo.FindOptions) =>
      driver.find<R>(where(filter) as mongo.Filter<T & mongo.Document>, options).toArray(),
    driverFindOne: (filter: ScopedFilter, options?: mongo.FindOptions) => driver.findOne(where(filter) as mongo.Filter<T & mongo.Document>, options) as Promise<T | null>,

    /**
     * Inserts `build(id)` in this account under a new time-ordered id. The account is written last,
     * so a built object that carries one (a field copied from a request) never decides it.
     */
    insert(build: (id: number) => Omit<T, 'account'> | Promise<Omit<T, 'account'>>, options: InsertOptions<T> = {}): Promise<T> {
      const viaDriver = options.driver
        ? async (doc: T) => {
            options.beforeInsert?.();
            await driver.insertOne(doc as never);
            return doc;
          }
        : undefined;
      return insertWithSequenceId(model, ids(), async (id) => ({ ...(await build(id)), account }) as unknown as T, { insert: viaDriver, abandon: options.abandon });
    },

    /** Stores a record of this account again, as it was read (a no-op when it is back already). */
    async putBack(doc: T): Promise<void> {
      if (doc.account !== account) throw new Error(`record ${doc._id} is not of account ${account}`);
      await model.create({ ...doc, account }).catch((err: unknown) => {
        if (!isDuplicateKey(err)) throw err;
      });
    },

    /** A page of the records matching `filter` (see paging.ts), its cursor bound to this account and the list `key`. */
    page: (key: string, filter: ScopedFilter, params: PageParams, order?: SortKey[]): Promise<Page<T>> => pager.page(access.lean, where(filter), params, scopeOf(key), order),
    sorted: (key: string, filter: ScopedFilter, params: SortedPageParams): Promise<Page<T>> => pager.sorted(access.lean, where(filter), params, scopeOf(key)),
    /**
     * `sorted` straight on the driver, for hot lists whose filter holds values of the stored types
     * already (numbers, enum strings): no mongoose Query is built or cast. The cursor's sort values
     * are the stored ones, as read.
     */
    driverSorted: (key: string, filter: ScopedFilter, params: SortedPageParams): Promise<Page<T>> => pager.sorted(access.raw, where(filter), params, scopeOf(key)),
    /** The first `size` records matching `filter` in creation order, on the driver, uncounted (a bounded view, not a page). */
    driverFirst: (filter: ScopedFilter, size: number): PageReader<T> => pager.first(access.raw, where(filter), size),

    /** Takes `values` out of the id list `field` of the records matching `filter`, each record atomically. */
    removeFromLists: (filter: ScopedFilter, field: string, values: number[], alsoSet?: ScopedSet) => removeFromLists(model, where(filter), field, values, alsoSet),

    /** A compare-and-set edit of one record (see revision-update.ts). */
    updateByRevision: <R extends T & { rev: number }>(id: number, changesFor: (current: R) => ScopedSet) =>
      updateByRevision(model as unknown as Model<R>, { _id: id, account }, changesFor),
  };
}

export type AccountScope<T extends AccountRecord> = ReturnType<typeof accountScope<T>>;
