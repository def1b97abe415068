import ConnectionString from 'mongodb-connection-string-url';

export interface MongoTarget {
  /** Server URL, or undefined for the embedded server. */
  url?: string;
  dbName: string;
  /** Most connections the app opens to the server (`MONGO_POOL_SIZE`); the default when undefined. */
  poolSize?: number;
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
 * Which server and database an app uses: `<PREFIX>_MONGO_URL`, else `MONGO_URL`, else the embedded
 * server. A database named in the URL wins over the app's default database name.
 */
export function resolveMongoTarget(prefix: string, defaultDb: string, env: NodeJS.ProcessEnv = process.env): MongoTarget {
  const url = env[`${prefix}_MONGO_URL`] || env.MONGO_URL || undefined;
  const poolSize = mongoPoolSize(env);
  const pool = poolSize === undefined ? {} : { poolSize };
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
