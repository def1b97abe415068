import mongoose, { type Connection } from 'mongoose';

/**
 * Connections per app process unless MONGO_POOL_SIZE says otherwise (the driver's own default is
 * 100). 20 covers the bench's 10 concurrent requests with up to three commands in flight each; an
 * open connection costs about 60 KB of heap, so the pool size is not what sizes an app's memory
 * (docs/BENCHMARKS.md, "Memory"). Raise it for many concurrent slow queries on a real server.
 */
export const DEFAULT_POOL_SIZE = 20;

export interface ConnectOptions {
  url: string;
  dbName: string;
  /** Most connections in the driver's pool; DEFAULT_POOL_SIZE when undefined. */
  maxPoolSize?: number;
  /** How long an operation waits for a reachable server before failing (the request gets a 503). */
  serverSelectionTimeoutMs?: number;
  /** Emit the driver's command events (`commandStarted` …) on `connection.getClient()`; tests count round trips with them. */
  monitorCommands?: boolean;
}

/**
 * One mongoose connection per app. Commands are not buffered while disconnected: a request fails
 * fast with 503 instead of hanging. Collections are made by `createIndexes` (see ensureIndexes).
 */
export async function connectMongo(options: ConnectOptions): Promise<Connection> {
  const connection = mongoose.createConnection(options.url, {
    dbName: options.dbName,
    autoCreate: false,
    autoIndex: false,
    bufferCommands: false,
    serverSelectionTimeoutMS: options.serverSelectionTimeoutMs ?? 3_000,
    maxPoolSize: options.maxPoolSize ?? DEFAULT_POOL_SIZE,
    monitorCommands: options.monitorCommands ?? false,
  });
  await connection.asPromise();
  return connection;
}

/** Creates the indexes declared on every model of the connection (and so their collections). */
export async function ensureIndexes(connection: Connection): Promise<void> {
  for (const model of Object.values(connection.models)) await model.createIndexes();
}

/** True while the database answers a ping within `timeoutMs`. */
export async function databaseReady(connection: Connection, timeoutMs = 1_000): Promise<boolean> {
  if (connection.readyState !== 1 || !connection.db) return false;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const ping = connection.db
    .command({ ping: 1 })
    .then(() => true)
    .catch(() => false);
  try {
    return await Promise.race([ping, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
