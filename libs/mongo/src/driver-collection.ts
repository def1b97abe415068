import type { Model, mongo } from 'mongoose';

/** The reads that take `maxTimeMS`: the driver-level twin of what mongoose queries get from the connection. */
const TIMED_READS = ['find', 'findOne', 'aggregate', 'countDocuments', 'estimatedDocumentCount', 'distinct'] as const;
/** Where each read takes its options. */
const OPTIONS_AT: Record<(typeof TIMED_READS)[number], number> = { find: 1, findOne: 1, aggregate: 1, countDocuments: 1, estimatedDocumentCount: 0, distinct: 2 };

const timedCollections = new WeakMap<Model<never>, mongo.Collection>();

/**
 * The collection with the connection's `maxTimeMS` (connect.ts) added to every read that does not
 * set its own, so the server stops a slow driver-level read as it does a mongoose query.
 */
function timedCollection(collection: mongo.Collection, maxTimeMS: number): mongo.Collection {
  const timed = Object.create(collection) as Record<string, unknown>;
  for (const name of TIMED_READS) {
    const read = collection[name] as (...args: unknown[]) => unknown;
    timed[name] = function (this: unknown, ...args: unknown[]) {
      const at = OPTIONS_AT[name];
      const options = (args[at] ?? {}) as { maxTimeMS?: number };
      args[at] = options.maxTimeMS === undefined ? { ...options, maxTimeMS } : options;
      return read.apply(this, args);
    };
  }
  return timed as unknown as mongo.Collection;
}

/**
 * The model's collection as the plain driver sees it, typed by the model's documents, for hot
 * paths: reads whose filter already holds values of the stored types (the same raw documents as a
 * `lean()` query) and writes of documents already complete and checked. No mongoose Query or
 * document is built, so no casting, defaults, validation or `select: false` apply: use it only
 * where none of those matter. It keeps the connection's buffering (commands wait while the
 * connection is not yet open) and its `maxTimeMS` on reads.
 */
export function driverCollection<T extends { _id: unknown }>(model: Model<T>): mongo.Collection<T> {
  const key = model as unknown as Model<never>;
  let collection = timedCollections.get(key);
  if (!collection) {
    const maxTimeMS = model.db.get('maxTimeMS') as number | undefined;
    collection = maxTimeMS ? timedCollection(model.collection as unknown as mongo.Collection, maxTimeMS) : (model.collection as unknown as mongo.Collection);
    timedCollections.set(key, collection);
  }
  return collection as unknown as mongo.Collection<T>;
}
