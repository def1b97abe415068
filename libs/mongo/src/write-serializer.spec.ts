import net from 'node:net';
import { MongoClient } from 'mongodb';
import { startEmbeddedMongo, type EmbeddedProcess } from './embedded';
import { TRANSACTION_HOLD_MS } from './write-serializer';

/**
 * Without the proxy, the embedded server gave 50 parallel `$inc`s a repeated value in most rounds
 * and let two conditional updates of one revision both apply now and then: the rounds below make a
 * regression show at once.
 */
describe('the embedded server behind the write serializer: single-document writes are atomic, as on MongoDB', () => {
  let server: EmbeddedProcess;
  let client: MongoClient;
  beforeAll(async () => {
    server = await startEmbeddedMongo();
    client = await MongoClient.connect(server.uri, { maxPoolSize: 60 });
  });
  afterAll(async () => {
    await client.close();
    await server.stop();
  });
  const db = () => client.db('write_serializer_spec');

  it('gives 50 parallel findOneAndUpdate $inc calls 50 distinct values, round after round', async () => {
    const counters = db().collection<{ _id: string; seq: number }>('counters');
    for (let round = 0; round < 20; round++) {
      await counters.deleteMany({});
      const seqs = await Promise.all(
        Array.from({ length: 50 }, async () => (await counters.findOneAndUpdate({ _id: 'c' }, { $inc: { seq: 1 } }, { upsert: true, returnDocument: 'after' }))!.seq),
      );
      expect(seqs.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    }
  });

  it('lets exactly one of five conditional updates of the same revision apply, round after round', async () => {
    const records = db().collection<{ _id: number; rev: number }>('records');
    for (let round = 0; round < 100; round++) {
      await records.deleteMany({});
      await records.insertOne({ _id: 1, rev: 0 });
      const results = await Promise.all([1, 2, 3, 4, 5].map(() => records.findOneAndUpdate({ _id: 1, rev: 0 }, { $inc: { rev: 1 } }, { returnDocument: 'after' })));
      expect(results.filter(Boolean)).toEqual([{ _id: 1, rev: 1 }]);
      expect(await records.findOne({ _id: 1 })).toEqual({ _id: 1, rev: 1 });
    }
  });

  it('runs transactions one at a time: a write made while one is open is applied after its commit, not lost', async () => {
    const docs = db().collection<{ _id: number; v: number }>('txn_docs');
    await docs.deleteMany({});
    await docs.insertOne({ _id: 1, v: 0 });
    const session = client.startSession();
    session.startTransaction();
    await docs.updateOne({ _id: 1 }, { $inc: { v: 1 } }, { session });
    const outside = docs.updateOne({ _id: 1 }, { $inc: { v: 100 } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await docs.findOne({ _id: 1 })).toEqual({ _id: 1, v: 0 }); // the transaction's write is not visible, the other write waits
    await session.commitTransaction();
    await outside;
    await session.endSession();
    expect(await docs.findOne({ _id: 1 })).toEqual({ _id: 1, v: 101 });
  });

  it('gives 20 parallel transactions that each read and increment a counter 20 distinct values', async () => {
    const counters = db().collection<{ _id: string; n: number }>('txn_counters');
    await counters.deleteMany({});
    const values = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const session = client.startSession();
        try {
          session.startTransaction();
          const current = (await counters.findOne({ _id: 'c' }, { session }))?.n ?? 0;
          await counters.updateOne({ _id: 'c' }, { $set: { n: current + 1 } }, { upsert: true, session });
          await session.commitTransaction();
          return current + 1;
        } finally {
          await session.endSession();
        }
      }),
    );
    expect(values.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await counters.findOne({ _id: 'c' })).toEqual({ _id: 'c', n: 20 });
  });

  it('lets go of a transaction whose client went away: its writes are not applied and others write at once', async () => {
    const docs = db().collection<{ _id: number; v: number }>('txn_abandoned');
    await docs.deleteMany({});
    await docs.insertOne({ _id: 1, v: 0 });
    const other = await MongoClient.connect(server.uri);
    const session = other.startSession();
    session.startTransaction();
    await other.db('write_serializer_spec').collection('txn_abandoned').updateOne({ _id: 1 as never }, { $set: { v: 999 } }, { session });
    await other.close(true);
    const started = Date.now();
    await docs.updateOne({ _id: 1 }, { $inc: { v: 1 } });
    expect(Date.now() - started).toBeLessThan(TRANSACTION_HOLD_MS);
    expect(await docs.findOne({ _id: 1 })).toEqual({ _id: 1, v: 1 });
  });

  it('aborts a transaction whose connections were cut before it lets go: its commit, retried on a new connection, cannot write over what ran meanwhile', async () => {
    const docs = db().collection<{ _id: number; v: string }>('txn_cut');
    await docs.deleteMany({});
    await docs.insertOne({ _id: 1, v: 'before' });
    // a relay between a client and the serializer, whose connections the test cuts (as a network fault does)
    const backend = new URL(server.uri);
    const cut = new Set<net.Socket>();
    const relay = net.createServer((near) => {
      const far = net.connect(Number(backend.port), backend.hostname);
      for (const socket of [near, far]) {
        cut.add(socket);
        socket.on('error', () => socket.destroy());
        socket.on('close', () => (near.destroy(), far.destroy()));
      }
      near.pipe(far).pipe(near);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const { port } = relay.address() as net.AddressInfo;
    const cutOff = await MongoClient.connect(server.uri.replace(`${backend.hostname}:${backend.port}`, `127.0.0.1:${port}`), { maxPoolSize: 2 });
    try {
      const session = cutOff.startSession();
      session.startTransaction();
      await cutOff.db('write_serializer_spec').collection('txn_cut').updateOne({ _id: 1 as never }, { $set: { v: 'cut off' } }, { session });
      for (const socket of cut) socket.destroy();
      // another write runs while the transaction is without its client
      await docs.updateOne({ _id: 1 }, { $set: { v: 'meanwhile' } });
      // the driver retries the commit on a new connection: the transaction was aborted, so nothing of it is applied
      // refused as MongoDB refuses the commit of an aborted transaction: NoSuchTransaction
      await expect(session.commitTransaction()).rejects.toMatchObject({ code: 251 });
      await session.endSession().catch(() => undefined);
      expect(await docs.findOne({ _id: 1 })).toEqual({ _id: 1, v: 'meanwhile' });
    } finally {
      await cutOff.close(true);
      relay.close();
    }
  });

  it('closes a connection that sends a length shorter than a message header, and keeps serving the others', async () => {
    const { hostname, port } = new URL(server.uri);
    const socket = net.connect(Number(port), hostname);
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => undefined);
    socket.write(Buffer.from([4, 0, 0, 0, 1, 2, 3, 4]));
    await closed;
    expect(await db().command({ ping: 1 })).toMatchObject({ ok: 1 });
  });

  it('cuts clients off when stopped: the address refuses new connections', async () => {
    const other = await startEmbeddedMongo();
    await other.stop();
    await expect(MongoClient.connect(other.uri, { serverSelectionTimeoutMS: 300 })).rejects.toThrow();
  });
});
