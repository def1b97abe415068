import type { Model, mongo } from 'mongoose';

type Filter = Record<string, unknown>;

/**
 * The count of a whole collection is read from its metadata (the `count` command without a query),
 * not by walking every document as a filtered count must: what MongoDB advises for it. It can be off
 * only after an unclean shutdown of a server, until the collection is validated.
 */
const wholeCollection = (filter: Filter) => Object.keys(filter).length === 0;

/**
 * Where a page is read from: the matches of a filter, sorted and limited (after `skip` of them:
 * only offset pages skip), and their count.
 */
export interface PageSource<T> {
  find(filter: Filter, sort: Record<string, 1 | -1>, limit: number, skip?: number): Promise<T[]>;
  count(filter: Filter): Promise<number>;
}

/** A mongoose model read with lean queries (casting, the connection's maxTimeMS). */
export const modelSource = <T>(model: Model<T>): PageSource<T> => ({
  find: (filter, sort, limit, skip = 0) => model.find(filter).sort(sort).skip(skip).limit(limit).lean<T[]>().exec(),
  count: (filter) => (wholeCollection(filter) ? model.estimatedDocumentCount().exec() : model.countDocuments(filter).exec()),
});

/**
 * A collection read straight on the driver, for hot lists whose filter already holds values of the
 * stored types (the same raw documents as `modelSource`, without building mongoose queries); with a
 * `projection`, what a page shows of each (fields it never shows are neither sent nor decoded).
 */
export const collectionSource = <T extends mongo.Document>(collection: mongo.Collection<T>, projection?: mongo.Document): PageSource<mongo.WithId<T>> => ({
  find: (filter, sort, limit, skip = 0) => collection.find(filter as mongo.Filter<T>, { sort, limit, ...(skip > 0 && { skip }), ...(projection && { projection }) }).toArray(),
  count: (filter) => (wholeCollection(filter) ? collection.estimatedDocumentCount() : collection.countDocuments(filter as mongo.Filter<T>)),
});
