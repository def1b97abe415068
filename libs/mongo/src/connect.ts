import mongoose, { type Connection } from 'mongoose';

/**
 * Connections per app process unless MONGO_POOL_SIZE says otherwise (the driver's own default is
 * 100). 20 covers the bench's 10 concurrent requests with up to three commands in flight each; an
 * open connection costs about 60 KB of heap, so the pool size is not what sizes an app's memory
 * (docs/BENCHMARKS.md, "Memory"). Raise it for many concurrent slow queries on a real server.
 */
export const DEFAULT_POOL_SIZE = 20;

/**
 * How long anything the app asks of the database may take. With the database stalled (process
 * stopped, network black-holed) or gone, an operation fails within these limits, the request
 * answers 503 (libs/errors) and the connection recovers by itself once the server answers again
 * (docs/RESILIENCE.md, "Database time bounds").
 *
 * - `serverSelectionMs`: an operation waits this long for a reachable server, then fails.
 * - `connectMs`: opening a connection (TCP and handshake); also how long the monitor waits for a
 *   heartbeat answer before it declares the server unknown and interrupts every operation on it.
 * - `heartbeatMs`: how often the monitor checks the server (polling, so a stall is noticed within
 *   `heartbeatMs + connectMs` instead of the streaming protocol's `connectMs + 10 s`).
 * - `socketMs`: longest silence on a connection while waiting for a reply.
 * - `waitQueueMs`: longest wait for a free connection of the pool.
 * - `queryMs`: `maxTimeMS` of every mongoose query and aggregation, and of driverCollection's reads: the server stops a slow one
 *   (code 50) before the socket limit cuts the connection.
 * - `requestBoundMs`: the documented bound for one request with the database stalled or gone. A
 *   stall is noticed by the monitor within `heartbeatMs + connectMs` (3 s), which interrupts every
 *   operation on that server (an operation cut earlier by `socketMs` is retried and interrupted
 *   the same way); the driver retries once, waiting up to `serverSelectionMs` (2 s) for a server:
 *   5 s, plus 1 s for the request's own work around the operation (authentication, other
 *   operations, serialising) on a busy process. A database that refuses connections is known at
 *   once: `serverSelectionMs`.
 */
export const DATABASE_TIME_LIMITS = {
  serverSelectionMs: 2_000,
  connectMs: 2_000,
  heartbeatMs: 1_000,
  socketMs: 3_000,
  waitQueueMs: 3_000,
  queryMs: 2_500,
  requestBoundMs: 6_000,
} as const;

export type DatabaseTimeLimits = { [K in keyof typeof DATABASE_TIME_LIMITS]: number };

export interface ConnectOptions {
  url: string;
  dbName: string;
  /** Most connections in the driver's pool; DEFAULT_POOL_SIZE when undefined. */
  maxPoolSize?: number;
  /** How long an operation waits for a reachable server before failing (the request gets a 503). */
  serverSelectionTimeoutMs?: number;
  /** Emit the driver's command events (`commandStarted` …) on `connection.getClient()`; tests count round trips with them. */
  monitorCommands?: boolean;
  /** DATABASE_TIME_LIMITS unless given (the test suites' shared, overloaded server gets wider ones). */
  limits?: Partial<DatabaseTimeLimits>;
}

/** The driver options every connection of the apps uses (see DATABASE_TIME_LIMITS). */
export function driverOptions(options: Omit<ConnectOptions, 'url'>): mongoose.ConnectOptions {
  const limits = { ...DATABASE_TIME_LIMITS, ...options.limits };
  return {
    dbName: options.dbName,
    autoCreate: false,
    autoIndex: false,
    bufferCommands: false,
    serverSelectionTimeoutMS: options.serverSelectionTimeoutMs ?? limits.serverSelectionMs,
    connectTimeoutMS: limits.connectMs,
    heartbeatFrequencyMS: limits.heartbeatMs,
    serverMonitoringMode: 'poll',
    socketTimeoutMS: limits.socketMs,
    waitQueueTimeoutMS: limits.waitQueueMs,
    maxPoolSize: options.maxPoolSize ?? DEFAULT_POOL_SIZE,
    monitorCommands: options.monitorCommands ?? false,
  };
}

/**
 * A connection that is not open yet: models can be registered on it and the app built, while
 * `openConnection` (run by `runService` until it succeeds) reaches the server. Until then every
 * operation fails at once (503), as commands are not buffered.
 */
export function createConnection(limits: Partial<DatabaseTimeLimits> = {}): Connection {
  const connection = mongoose.createConnection();
  connection.config.bufferCommands = false; // before the first open, too: fail at once instead of waiting 10 s
  connection.set('maxTimeMS', limits.queryMs ?? DATABASE_TIME_LIMITS.queryMs);
  limitsByConnection.set(connection, { ...DATABASE_TIME_LIMITS, ...limits });
  return connection;
}

const limitsByConnection = new WeakMap<Connection, DatabaseTimeLimits>();

/** The time limits `connection` was made with (DATABASE_TIME_LIMITS for one not made by createConnection): an app bounds its requests by them. */
export const timeLimitsOf = (connection: Connection): DatabaseTimeLimits => limitsByConnection.get(connection) ?? DATABASE_TIME_LIMITS;

/** Opens `connection` (made by createConnection); rejects when no server answers within the server selection limit, and may be called again then. */
export async function openConnection(connection: Connection, options: ConnectOptions): Promise<void> {
  await connection.openUri(options.url, driverOptions(options));
}

/**
 * One mongoose connection per app, open. Commands are not buffered while disconnected: a request
 * fails fast with 503 instead of hanging. Collections are made by `createIndexes` (see ensureIndexes).
 */
export async function connectMongo(options: ConnectOptions): Promise<Connection> {
  const connection = createConnection(options.limits);
  await openConnection(connection, options);
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
