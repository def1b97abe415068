import net from 'node:net';
import { MongoClient } from 'mongodb';
import { ephemeralPortsFrom } from '@lib/services';
import { startFaultyDatabase, type FaultyDatabase } from './faulty-database';

const listenOnAnyPort = () =>
  new Promise<net.Server>((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => resolve(server));
  });

describe('faulty database', () => {
  let db: FaultyDatabase;
  beforeAll(async () => {
    db = await startFaultyDatabase();
  });
  afterAll(() => db.close());

  it("listens below the kernel's ephemeral ports, so no socket given a port by the kernel can hold it while the database is down", () => {
    expect(db.port).toBeGreaterThanOrEqual(10_000);
    expect(db.port).toBeLessThan(ephemeralPortsFrom());
  });

  it('comes back on the same port with what it stored, while other servers take ports of their own', async () => {
    const client = new MongoClient(db.url, { serverSelectionTimeoutMS: 5000 });
    try {
      await client.db('faulty').collection('things').insertOne({ _id: 'kept' } as never);
      await db.stop();
      const others = await Promise.all(Array.from({ length: 50 }, listenOnAnyPort));
      try {
        expect(others.map((s) => (s.address() as net.AddressInfo).port)).not.toContain(db.port);
        await db.start();
        expect(await client.db('faulty').collection('things').findOne({ _id: 'kept' } as never)).toEqual({ _id: 'kept' });
      } finally {
        await Promise.all(others.map((s) => new Promise((resolve) => s.close(resolve))));
      }
    } finally {
      await client.close();
    }
  }, 20_000);
});
