import type { Connection } from 'mongoose';
import { connectMongo, ensureIndexes } from './connect';
import { revocableCache } from '@lib/cache';
import { REVOCATION_BOUND_MS, revocationLog } from './revocation-log';
import { useTestDatabase, startFaultyDatabase, type FaultyDatabase } from '@lib/testing';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, timeoutMs: number): Promise<number> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`not true after ${timeoutMs} ms`);
    await pause(10);
  }
  return Date.now() - start;
}

const followingCache = (connection: Connection) =>
  revocableCache<number, string>({ ttlMs: 60_000, follow: { log: revocationLog(connection), scope: 'users', parseKey: Number } });

describe('revocation log: a revocation in one process reaches the caches of the others', () => {
  const db = useTestDatabase();
  let other: Connection;
  beforeAll(async () => {
    other = await connectMongo({ url: process.env.TEST_MONGO_URL!, dbName: db.dbName });
    revocationLog(db.connection);
    await ensureIndexes(db.connection);
  });
  afterAll(() => other.close());

  it('forgets the entry everywhere within the bound, and only in its own scope', async () => {
    const here = followingCache(db.connection);
    const there = followingCache(other);
    const elsewhere = revocableCache<number, string>({ ttlMs: 60_000, follow: { log: revocationLog(other), scope: 'accounts', parseKey: Number } });
    await until(() => revocationLog(other).fresh() && revocationLog(db.connection).fresh(), 5_000);
    there.remember(7, 'ann', there.generation());
    there.remember(8, 'bob', there.generation());
    elsewhere.remember(7, 'acme', elsewhere.generation());
    expect(there.get(7)).toBe('ann');

    here.remember(7, 'ann', here.generation());
    await here.revoke(7);
    expect(here.get(7)).toBeUndefined(); // at once in the revoking process
    await until(() => there.get(7) === undefined, REVOCATION_BOUND_MS * 3);
    expect(there.get(8)).toBe('bob');
    expect(elsewhere.get(7)).toBe('acme');
    const stored = await db.connection.collection('revocations').find({}).toArray();
    expect(stored.map(({ scope, key }) => ({ scope, key }))).toEqual([{ scope: 'users', key: '7' }]);
  });

  it('the TTL index expires old entries', async () => {
    const indexes = await db.connection.collection('revocations').indexes();
    expect(indexes.find((index) => index.key.at === 1)).toMatchObject({ expireAfterSeconds: 600 });
  });
});

describe('revocation log: when the database cannot be read, the cache stops answering', () => {
  let database: FaultyDatabase;
  let connection: Connection;
  beforeAll(async () => {
    database = await startFaultyDatabase();
    connection = await connectMongo({ url: database.url, dbName: 'revocations_stall', serverSelectionTimeoutMs: 500 });
  });
  afterAll(async () => {
    await connection.close().catch(() => undefined);
    await database.close();
  });

  it('misses within the bound of the last good read, and answers again once reads succeed', async () => {
    const cache = followingCache(connection);
    await until(() => revocationLog(connection).fresh(), 5_000);
    cache.remember(1, 'ann', cache.generation());
    expect(cache.get(1)).toBe('ann');
    await database.stop();
    await until(() => cache.get(1) === undefined, REVOCATION_BOUND_MS * 3);
    await database.start();
    await until(() => revocationLog(connection).fresh(), 10_000);
    cache.remember(2, 'bob', cache.generation());
    expect(cache.get(2)).toBe('bob');
  });
});
