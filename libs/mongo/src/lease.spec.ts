import type { Connection } from 'mongoose';
import { connectMongo } from './connect';
import { useTestDatabase, startFaultyDatabase, type FaultyDatabase } from '@lib/testing';
import { leaseHolder, tryLease } from './lease';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('leases', () => {
  const db = useTestDatabase();
  beforeEach(() => db.clear());
  const stored = () => db.connection.collection('leases').findOne({ _id: 'job' as never });

  it('gives the lease to one taker; the others get nothing until it is released', async () => {
    const first = await tryLease(db.connection, 'job', { ttlMs: 10_000 });
    expect(first).toBeDefined();
    expect(await tryLease(db.connection, 'job', { ttlMs: 10_000 })).toBeUndefined();
    expect(await leaseHolder(db.connection, 'job')).toBe(first!.token);
    expect(await stored()).toEqual({ _id: 'job', holder: first!.token, expires_at: expect.any(Date) });

    await first!.release();
    expect(await leaseHolder(db.connection, 'job')).toBeUndefined();
    const second = await tryLease(db.connection, 'job', { ttlMs: 10_000 });
    expect(second?.token).toEqual(expect.any(String));
    expect(second!.token).not.toBe(first!.token);
    await second!.release();
  });

  it('lets exactly one of 20 concurrent takers hold it', async () => {
    const takers = await Promise.all(Array.from({ length: 20 }, () => tryLease(db.connection, 'job', { ttlMs: 10_000 })));
    const held = takers.filter((t) => t !== undefined);
    expect(held).toHaveLength(1);
    expect(await leaseHolder(db.connection, 'job')).toBe(held[0]!.token);
    await held[0]!.release();
  });

  it('keeps each name its own lease', async () => {
    const a = await tryLease(db.connection, 'a', { ttlMs: 10_000 });
    const b = await tryLease(db.connection, 'b', { ttlMs: 10_000 });
    expect(a && b).toBeDefined();
    await Promise.all([a!.release(), b!.release()]);
  });

  it('is taken over once it expires (a holder that died and stopped renewing)', async () => {
    const dead = await tryLease(db.connection, 'job', { ttlMs: 60_000 });
    // its renewals stopped (SIGKILL): simulated by letting the stored expiry pass
    await db.connection.collection('leases').updateOne({ _id: 'job' as never }, { $set: { expires_at: new Date(Date.now() - 1) } });
    expect(await leaseHolder(db.connection, 'job')).toBeUndefined();
    const next = await tryLease(db.connection, 'job', { ttlMs: 60_000 });
    expect(next).toBeDefined();
    // the old holder's release leaves the new holder's lease alone
    await dead!.release();
    expect(await leaseHolder(db.connection, 'job')).toBe(next!.token);
    await next!.release();
  });

  it('tells a holder whose lease was taken over, at its next renewal', async () => {
    const lease = await tryLease(db.connection, 'job', { ttlMs: 300 });
    await db.connection.collection('leases').updateOne({ _id: 'job' as never }, { $set: { holder: 'another-process' } });
    for (let i = 0; i < 100 && !lease!.lost.aborted; i++) await sleep(20);
    expect(lease!.lost.aborted).toBe(true);
    await lease!.release();
    expect(await stored()).toMatchObject({ holder: 'another-process' });
  });

  it('is renewed while held: its stored expiry moves on past the first one', async () => {
    const lease = await tryLease(db.connection, 'job', { ttlMs: 3_000 });
    const first = (await stored())!.expires_at as Date;
    let latest = first;
    for (let i = 0; i < 250 && latest <= first; i++) {
      await sleep(20);
      latest = (await stored())!.expires_at as Date;
    }
    expect(latest.getTime()).toBeGreaterThan(first.getTime());
    expect(lease!.lost.aborted).toBe(false);
    expect(await leaseHolder(db.connection, 'job')).toBe(lease!.token);
    await lease!.release();
  });
});

describe('a lease on a stalled database', () => {
  let database: FaultyDatabase;
  let connection: Connection;
  beforeAll(async () => {
    database = await startFaultyDatabase();
    connection = await connectMongo({ url: database.url, dbName: 'lease_stall' });
  });
  afterAll(async () => {
    await connection.close().catch(() => undefined);
    await database.close();
  });

  it('is lost at its expiry while its renewals hang, before another process could take it over', async () => {
    const lease = await tryLease(connection, 'job', { ttlMs: 600 });
    expect(lease).toBeDefined();
    const lostAt = new Promise<number>((resolve) => lease!.lost.addEventListener('abort', () => resolve(Date.now()), { once: true }));
    const stalledAt = Date.now();
    await database.stall();
    try {
      // the renewal sent meanwhile hangs for the socket limit (3 s); the lease must not outlive its 600 ms
      expect((await lostAt) - stalledAt).toBeLessThan(1_000);
    } finally {
      await database.start();
    }
    await lease!.release();
  }, 20_000);
});
