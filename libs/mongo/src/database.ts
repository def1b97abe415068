import type { Connection } from 'mongoose';
import { createConnection, DATABASE_TIME_LIMITS, openConnection, type DatabaseTimeLimits } from './connect';
import { startEmbeddedMongo, type EmbeddedMongo } from './embedded';
import { redactMongoUrl, type MongoTarget } from './target';

export interface OpenDatabase {
  /** The app's connection; operations fail at once (503) until `open()` has succeeded. */
  connection: Connection;
  /** Which lane was taken, for the start-up log. */
  description: string;
  /** Reaches the server; rejects when it does not answer within the server selection limit, and may be called again then. */
  open(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A longer query limit, and past it the socket's silence limit (the server stops the query before
 * the socket is cut) and the heartbeat's answer limit (a server busy with a long command on its one
 * thread, as the embedded one is, still counts as up).
 */
function queryLimits(queryMs: number | undefined): Partial<DatabaseTimeLimits> {
  if (queryMs === undefined) return {};
  const past = queryMs + 500;
  return { queryMs, socketMs: Math.max(DATABASE_TIME_LIMITS.socketMs, past), connectMs: Math.max(DATABASE_TIME_LIMITS.connectMs, past) };
}

/**
 * The app's database, not yet reached: the configured server, or (lane 2, no URL set) an embedded
 * server started for this process. `runService` calls `open()` until it succeeds, so an app whose
 * database is unreachable at start keeps trying instead of exiting.
 */
export async function createDatabase(target: MongoTarget): Promise<OpenDatabase> {
  let embedded: EmbeddedMongo | undefined;
  let url = target.url;
  if (!url) {
    embedded = await startEmbeddedMongo();
    url = embedded.uri;
  }
  const serverUrl = url;
  const limits = queryLimits(target.queryMs);
  const connection = createConnection(limits);
  const description = embedded
    ? `embedded in-memory server at ${url} (data is lost at exit; set MONGO_URL for a real MongoDB), database "${target.dbName}"`
    : `MongoDB at ${redactMongoUrl(url)}, database "${target.dbName}"`;
  return {
    connection,
    description,
    open: () => openConnection(connection, { url: serverUrl, dbName: target.dbName, maxPoolSize: target.poolSize, limits }),
    async close() {
      await connection.close();
      await embedded?.stop();
    },
  };
}

/** `createDatabase` and a first `open()`, which must succeed. */
export async function openDatabase(target: MongoTarget): Promise<OpenDatabase> {
  const database = await createDatabase(target);
  try {
    await database.open();
  } catch (err) {
    await database.close().catch(() => undefined);
    throw err;
  }
  return database;
}
