import ConnectionString from 'mongodb-connection-string-url';

export interface MongoTarget {
  /** Server URL, or undefined for the embedded server. */
  url?: string;
  dbName: string;
  /** Most connections the app opens to the server (`MONGO_POOL_SIZE`); the default when undefined. */
  poolSize?: number;
  /** `maxTimeMS` of every query (`MONGO_QUERY_TIME_MS`); DATABASE_TIME_LIMITS.queryMs when undefined. */
  queryMs?: number;
}

/** `MONGO_POOL_SIZE`: a whole number of connections, 1 to 100; undefined when not set. */
function mongoPoolSize(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env.MONGO_POOL_SIZE;
  if (raw === undefined || raw === '') return undefined;
  const size = Number(raw);
  if (!/^\d+$/.test(raw) || size < 1 || size > 100) throw new Error(`MONGO_POOL_SIZE must be a whole number from 1 to 100, got "${raw}"`);
  return size;
}

/**
 * `MONGO_QUERY_TIME_MS`: how long a query may run before the server stops it (maxTimeMS), 100 ms
 * to 10 minutes, the socket and heartbeat limits following it; undefined when not set. For a
 * server slower than production's (the embedded one under a large data set, as the benchmark's
 * search corpus), never needed with MongoDB at its size: it also slows the noticing of a stall.
 */
function mongoQueryMs(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.MONGO_QUERY_TIME_MS;
  if (raw === undefined || raw === '') return undefined;
  const ms = Number(raw);
  if (!/^\d+$/.test(raw) || ms < 100 || ms > 600_000) throw new Error(`MONGO_QUERY_TIME_MS must be a whole number of milliseconds from 100 to 600000, got "${raw}"`);
  return ms;
}

/**
 * Which server and database an app uses: `<PREFIX>_MONGO_URL`, else `MONGO_URL`, else the embedded
 * server. A database named in the URL wins over the app's default database name.
 */
export function resolveMongoTarget(prefix: string, defaultDb: string, env: NodeJS.ProcessEnv = process.env): MongoTarget {
  const url = env[`${prefix}_MONGO_URL`] || env.MONGO_URL || undefined;
  const poolSize = mongoPoolSize(env);
  const queryMs = mongoQueryMs(env);
  const pool = { ...(poolSize !== undefined && { poolSize }), ...(queryMs !== undefined && { queryMs }) };
  if (!url) return { dbName: defaultDb, ...pool };
  let parsed: ConnectionString;
  try {
    parsed = new ConnectionString(url);
  } catch (err) {
    throw new Error(`${env[`${prefix}_MONGO_URL`] ? `${prefix}_MONGO_URL` : 'MONGO_URL'} is not a valid MongoDB URL: ${(err as Error).message}`);
  }
  const fromUrl = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  return { url, dbName: fromUrl || defaultDb, ...pool };
}

/** The URL with any password replaced, for logs. */
export function redactMongoUrl(url: string): string {
  try {
    const parsed = new ConnectionString(url);
    if (parsed.password) parsed.password = '****';
    return parsed.toString();
  } catch {
    return '(unparseable url)';
  }
}
