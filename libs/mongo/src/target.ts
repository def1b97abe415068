import ConnectionString from 'mongodb-connection-string-url';

export interface MongoTarget {
  /** Server URL, or undefined for the embedded server. */
  url?: string;
  dbName: string;
}

/**
 * Which server and database an app uses: `<PREFIX>_MONGO_URL`, else `MONGO_URL`, else the embedded
 * server. A database named in the URL wins over the app's default database name.
 */
export function resolveMongoTarget(prefix: string, defaultDb: string, env: NodeJS.ProcessEnv = process.env): MongoTarget {
  const url = env[`${prefix}_MONGO_URL`] || env.MONGO_URL || undefined;
  if (!url) return { dbName: defaultDb };
  let parsed: ConnectionString;
  try {
    parsed = new ConnectionString(url);
  } catch (err) {
    throw new Error(`${env[`${prefix}_MONGO_URL`] ? `${prefix}_MONGO_URL` : 'MONGO_URL'} is not a valid MongoDB URL: ${(err as Error).message}`);
  }
  const fromUrl = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  return { url, dbName: fromUrl || defaultDb };
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
