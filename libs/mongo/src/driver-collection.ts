import type { Model, mongo } from 'mongoose';
import { ambientSession } from './transaction';

/** The reads that take `maxTimeMS`: the driver-level twin of what mongoose queries get from the connection. */
const TIMED_READS = ['find', 'findOne', 'aggregate', 'countDocuments', 'estimatedDocumentCount', 'distinct'] as const;
/** Where each call takes its options: the reads, and the writes (which take a transaction's session too). */
const OPTIONS_AT: Record<string, number> = {
  find: 1,
  findOne: 1,
  aggregate: 1,
  countDocuments: 1,
  estimatedDocumentCount: 0,
  distinct: 2,
  insertOne: 1,
  insertMany: 1,
  updateOne: 2,
  updateMany: 2,
  replaceOne: 2,
  deleteOne: 1,
  deleteMany: 1,
  findOneAndUpdate: 2,
  findOneAndReplace: 2,
  findOneAndDelete: 1,
  bulkWrite: 1,
};
const TIMED = new Set<string>(TIMED_READS);

const wrappedCollections = new WeakMap<Model<never>, mongo.Collection>();

/**
 * The collection with the connection's `maxTimeMS` (connect.ts) added to every read that does not
 * set its own, so the server stops a slow driver-level read as it does a mongoose query; and, in a
 * transaction (inTransaction), its session added to every call that names none, as mongoose adds it
 * to its queries.
 */
function wrappedCollection(collection: mongo.Collection, base: unknown, maxTimeMS: number | undefined): mongo.Collection {
  const wrapped = Object.create(collection) as Record<string, unknown>;
  for (const [name, at] of Object.entries(OPTIONS_AT)) {
    wrapped[name] = function (this: unknown, ...args: unknown[]) {
      // read at each call: a method replaced on the collection later (a test's spy) is the one called
      const call = collection[name as keyof mongo.Collection] as unknown as (...args: unknown[]) => unknown;
      const options = { ...((args[at] ?? {}) as { maxTimeMS?: number; session?: unknown }) };
      if (maxTimeMS && TIMED.has(name) && options.maxTimeMS === undefined) options.maxTimeMS = maxTimeMS;
      const session = options.session === undefined ? ambientSession(base) : undefined;
      if (session) options.session = session;
      args[at] = options;
      return call.apply(this, args);
    };
  }
  return wrapped as unknown as mongo.Collection;
}

/**
 * The model's collection as the plain driver sees it, typed by the model's documents, for hot
 * paths: reads whose filter already holds values of the stored types (the same raw documents as a
 * `lean()` query) and writes of documents already complete and checked. No mongoose Query or
 * document is built, so no casting, defaults, validation or `select: false` apply: use it only
 * where none of those matter. It keeps the connection's buffering (commands wait while the
 * connection is not yet open), its `maxTimeMS` on reads and the session of the transaction it runs
 * in (inTransaction).
 */
export function driverCollection<T extends { _id: unknown }>(model: Model<T>): mongo.Collection<T> {
  const key = model as unknown as Model<never>;
  let collection = wrappedCollections.get(key);
  if (!collection) {
    const maxTimeMS = model.db.get('maxTimeMS') as number | undefined;
    collection = wrappedCollection(model.collection as unknown as mongo.Collection, model.db.base, maxTimeMS);
    wrappedCollections.set(key, collection);
  }
  return collection as unknown as mongo.Collection<T>;
}
