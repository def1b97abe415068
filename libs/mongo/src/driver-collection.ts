import type { Model, mongo } from 'mongoose';

/**
 * The model's collection as the plain driver sees it, typed by the model's documents, for hot
 * paths: reads whose filter already holds values of the stored types (the same raw documents as a
 * `lean()` query) and writes of documents already complete and checked. No mongoose Query or
 * document is built, so no casting, defaults, validation or `select: false` apply: use it only
 * where none of those matter. It keeps the connection's buffering (commands wait while the
 * connection is not yet open).
 */
export function driverCollection<T extends { _id: unknown }>(model: Model<T>): mongo.Collection<T> {
  return model.collection as unknown as mongo.Collection<T>;
}
