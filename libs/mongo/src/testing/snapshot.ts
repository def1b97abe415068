import type { Connection } from 'mongoose';

/**
 * Everything stored in the collections of the connection's models, as one comparable string
 * (documents in `_id` order). Collections in `ignore` are left out: the id counters, for example,
 * may advance on a rejected create without storing anything.
 */
export async function snapshotDatabase(connection: Connection, ignore: string[] = ['counters']): Promise<string> {
  const names = [...new Set(Object.values(connection.models).map((model) => model.collection.collectionName))].filter((name) => !ignore.includes(name)).sort();
  const parts = await Promise.all(names.map(async (name) => [name, await connection.collection(name).find({}).sort({ _id: 1 }).toArray()] as const));
  return JSON.stringify(Object.fromEntries(parts));
}
