import type { Connection } from 'mongoose';
import { REVOCATION_COLLECTION } from '@lib/mongo';

/**
 * Left out unless told otherwise: id counters (they may advance on a rejected create without storing
 * anything), the failed-attempt counters (a refused credential is counted: that is the point) and
 * the revocation log (bookkeeping of changes, not stored data).
 */
export const BOOKKEEPING_COLLECTIONS = ['counters', 'failed_attempts', REVOCATION_COLLECTION];

export interface StoredDocumentsOptions {
  /** Collections left out; BOOKKEEPING_COLLECTIONS unless given. */
  ignoreCollections?: string[];
  /** Fields left out of every document (e.g. a sign-in time that authentication refreshes). */
  ignoreFields?: string[];
}

/** Everything stored in the collections of the connection's models, collection by collection, documents in `_id` order. */
export async function storedDocuments(connection: Connection, options: StoredDocumentsOptions = {}): Promise<Record<string, unknown[]>> {
  const { ignoreCollections = BOOKKEEPING_COLLECTIONS, ignoreFields = [] } = options;
  const names = [...new Set(Object.values(connection.models).map((model) => model.collection.collectionName))].filter((name) => !ignoreCollections.includes(name)).sort();
  const read = async (name: string) => {
    const docs = await connection.collection(name).find({}).sort({ _id: 1 }).toArray();
    return docs.map((doc) => Object.fromEntries(Object.entries(doc).filter(([field]) => !ignoreFields.includes(field))));
  };
  return Object.fromEntries(await Promise.all(names.map(async (name) => [name, await read(name)] as const)));
}

/** storedDocuments as one comparable string. */
export async function snapshotDatabase(connection: Connection, ignore: string[] = BOOKKEEPING_COLLECTIONS): Promise<string> {
  return JSON.stringify(await storedDocuments(connection, { ignoreCollections: ignore }));
}
