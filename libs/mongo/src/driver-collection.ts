import type { Model, mongo } from 'mongoose';

/**
 * The model's collection as the plain driver sees it, typed by the model's documents. For hot reads
 * whose filter already holds values of the stored types: it returns the same raw documents as a
 * `lean()` query, without the cost of building and casting a mongoose Query (no casting, defaults,
 * or `select: false` applied: use only where none of those matter).
 */
export function driverCollection<T extends mongo.Document>(model: Model<T>): mongo.Collection<T> {
  return model.collection as unknown as mongo.Collection<T>;
}
