import type { Connection } from 'mongoose';
import { connectMongo } from './connect';
import { startEmbeddedMongo, type EmbeddedMongo } from './embedded';
import { redactMongoUrl, type MongoTarget } from './target';

export interface OpenDatabase {
  connection: Connection;
  /** Which lane was taken, for the start-up log. */
  description: string;
  close(): Promise<void>;
}

/**
 * Opens the app's database: the configured server, or (lane 2, no URL set) an embedded server
 * started for this process.
 */
export async function openDatabase(target: MongoTarget): Promise<OpenDatabase> {
  let embedded: EmbeddedMongo | undefined;
  let url = target.url;
  if (!url) {
    embedded = await startEmbeddedMongo();
    url = embedded.uri;
  }
  const connection = await connectMongo({ url, dbName: target.dbName, maxPoolSize: target.poolSize });
  const description = embedded
    ? `embedded in-memory server at ${url} (data is lost at exit; set MONGO_URL for a real MongoDB), database "${target.dbName}"`
    : `MongoDB at ${redactMongoUrl(url)}, database "${target.dbName}"`;
  return {
    connection,
    description,
    async close() {
      await connection.close();
      await embedded?.stop();
    },
  };
}

