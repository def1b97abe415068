import type { Model, mongo } from 'mongoose';

type Filter = Record<string, unknown>;

/** Where the pager reads a page from: the matches of a filter, sorted and limited, and their count. */
export interface PageSource<T> {
  find(filter: Filter, sort: Record<string, 1 | -1>, limit: number): Promise<T[]>;
  count(filter: Filter): Promise<number>;
}

/** A mongoose model read with lean queries (casting, the connection's maxTimeMS). */
export const modelSource = <T>(model: Model<T>): PageSource<T> => ({
  find: (filter, sort, limit) => model.find(filter).sort(sort).limit(limit).lean<T[]>().exec(),
  count: (filter) => model.countDocuments(filter).exec(),
});

/**
 * A collection read straight on the driver, for hot lists whose filter already holds values of the
 * stored types (the same raw documents as `modelSource`, without building mongoose queries).
 */
export const collectionSource = <T extends mongo.Document>(collection: mongo.Collection<T>): PageSource<mongo.WithId<T>> => ({
  find: (filter, sort, limit) => collection.find(filter as mongo.Filter<T>, { sort, limit }).toArray(),
  count: (filter) => collection.countDocuments(filter as mongo.Filter<T>),
});
