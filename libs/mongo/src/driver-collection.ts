import type { Model, mongo } from 'mongoose';

/**
 * The model's collection as the driver types it, for hot paths that write documents already
 * complete and checked: no mongoose document or query to build. It keeps the connection's
 * buffering (commands wait while the connection is not yet open).
 */
export function driverCollection<T extends { _id: unknown }>(model: Model<T>): mongo.Collection<T> {
  return model.collection as unknown as mongo.Collection<T>;
}
