import net from 'node:net';
import { toHttpError } from '@lib/errors';
import { Schema } from 'mongoose';
import { driverCollection } from './driver-collection';
import { connectMongo, createConnection, DATABASE_TIME_LIMITS, databaseReady, DEFAULT_POOL_SIZE, ensureIndexes, openConnection } from './connect';
import { useTestDatabase } from '@lib/testing';

/** A local port nothing listens on. */
async function unusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const testUrl = () => {
  const url = process.env.TEST_MONGO_URL;
  if (!url) throw new Error('TEST_MONGO_URL is not set');
  return url;
};

describe('connectMongo and databaseReady', () => {
  it('connects to the test server with the given database', async () => {
    const connection = await connectMongo({ url: testUrl(), dbName: 'connect_spec_a' });
    try {
      expect(connection.readyState).toBe(1);
      expect(connection.name).toBe('connect_spec_a');
      expect(await databaseReady(connection)).toBe(true);
    } finally {
      await connection.close();
    }
  });

  it('opens at most DEFAULT_POOL_SIZE connections unless told another pool size', async () => {
    const defaults = await connectMongo({ url: testUrl(), dbName: 'connect_spec_pool' });
    const five = await connectMongo({ url: testUrl(), dbName: 'connect_spec_pool', maxPoolSize: 5 });
    try {
      expect(defaults.getClient().options.maxPoolSize).toBe(DEFAULT_POOL_SIZE);
      expect(five.getClient().options.maxPoolSize).toBe(5);
    } finally {
      await Promise.all([defaults.close(), five.close()]);
    }
  });

  it('reports a closed connection as not ready', async () => {
    const connection = await connectMongo({ url: testUrl(), dbName: 'connect_spec_b' });
    await connection.close();
    expect(await databaseReady(connection)).toBe(false);
  });

  it('fails fast, with a 503-mapped error, on a closed connection (commands are not buffered)', async () => {
    const connection = await connectMongo({ url: testUrl(), dbName: 'connect_spec_c' });
    const Thing = connection.model('Thing', new Schema({ name: String }));
    await connection.close();
    const started = Date.now();
    const err = await Thing.findOne({}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(toHttpError(err)?.status).toBe(503);
  });

  it('rejects when no server answers, within the selection timeout', async () => {
    const port = await unusedPort();
    const started = Date.now();
    const err = await connectMongo({ url: `mongodb://127.0.0.1:${port}`, dbName: 'x', serverSelectionTimeoutMs: 300 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(toHttpError(err)?.status).toBe(503);
  });
});

describe('time limits of every connection (docs/RESILIENCE.md, "Database time bounds")', () => {
  it('sets server selection, connect, heartbeat, socket and wait-queue limits on the driver', async () => {
    const connection = await connectMongo({ url: testUrl(), dbName: 'connect_spec_limits' });
    try {
      const options = connection.getClient().options;
      expect({
        serverSelectionTimeoutMS: options.serverSelectionTimeoutMS,
        connectTimeoutMS: options.connectTimeoutMS,
        heartbeatFrequencyMS: options.heartbeatFrequencyMS,
        serverMonitoringMode: options.serverMonitoringMode,
        socketTimeoutMS: options.socketTimeoutMS,
        waitQueueTimeoutMS: options.waitQueueTimeoutMS,
      }).toEqual({
        serverSelectionTimeoutMS: DATABASE_TIME_LIMITS.serverSelectionMs,
        connectTimeoutMS: DATABASE_TIME_LIMITS.connectMs,
        heartbeatFrequencyMS: DATABASE_TIME_LIMITS.heartbeatMs,
        serverMonitoringMode: 'poll',
        socketTimeoutMS: DATABASE_TIME_LIMITS.socketMs,
        waitQueueTimeoutMS: DATABASE_TIME_LIMITS.waitQueueMs,
      });
      // the server stops a slow query before the socket limit cuts the connection
      expect(DATABASE_TIME_LIMITS.queryMs).toBeLessThan(DATABASE_TIME_LIMITS.socketMs);
    } finally {
      await connection.close();
    }
  });

  it('sends every mongoose query and aggregation with maxTimeMS, unless the query sets its own', async () => {
    const connection = await connectMongo({ url: testUrl(), dbName: 'connect_spec_maxtime', monitorCommands: true });
    const sent: Array<{ name: string; maxTimeMS: unknown }> = [];
    connection.getClient().on('commandStarted', (event) => sent.push({ name: event.commandName, maxTimeMS: event.command.maxTimeMS }));
    try {
      const Thing = connection.model('Thing', new Schema({ name: String }));
      await Thing.find({ name: 'a' }).lean();
      await Thing.countDocuments({});
      await Thing.findOneAndUpdate({ name: 'a' }, { $set: { name: 'b' } });
      await Thing.aggregate([{ $match: { name: 'b' } }]);
      await Thing.findOne({}).maxTimeMS(50);
      const limit = DATABASE_TIME_LIMITS.queryMs;
      expect(sent).toEqual([
        { name: 'find', maxTimeMS: limit },
        { name: 'aggregate', maxTimeMS: limit },
        { name: 'findAndModify', maxTimeMS: limit },
        { name: 'aggregate', maxTimeMS: limit },
        { name: 'find', maxTimeMS: 50 },
      ]);
    } finally {
      await connection.close();
    }
  });

  it('sends the driver-level reads of driverCollection with the same maxTimeMS, unless the read sets its own', async () => {
    const connection = await connectMongo({ url: testUrl(), dbName: 'connect_spec_driver_maxtime', monitorCommands: true });
    const sent: Array<{ name: string; maxTimeMS: unknown }> = [];
    connection.getClient().on('commandStarted', (event) => sent.push({ name: event.commandName, maxTimeMS: event.command.maxTimeMS }));
    try {
      const Thing = connection.model<{ _id: number; name: string }>('Thing', new Schema({ _id: Number, name: String }));
      const things = driverCollection(Thing);
      await things.insertOne({ _id: 1, name: 'a' });
      expect(await things.find({ name: 'a' }).toArray()).toEqual([{ _id: 1, name: 'a' }]);
      expect(await things.findOne({ _id: 1 })).toEqual({ _id: 1, name: 'a' });
      expect(await things.countDocuments({})).toBe(1);
      expect(await things.estimatedDocumentCount()).toBe(1);
      expect(await things.distinct('name', {})).toEqual(['a']);
      await things.aggregate([{ $match: { name: 'a' } }]).toArray();
      await things.findOne({ _id: 1 }, { maxTimeMS: 50 });
      const limit = DATABASE_TIME_LIMITS.queryMs;
      expect(sent).toEqual([
        { name: 'insert', maxTimeMS: undefined },
        { name: 'find', maxTimeMS: limit },
        { name: 'find', maxTimeMS: limit },
        { name: 'aggregate', maxTimeMS: limit },
        { name: 'count', maxTimeMS: limit },
        { name: 'distinct', maxTimeMS: limit },
        { name: 'aggregate', maxTimeMS: limit },
        { name: 'find', maxTimeMS: 50 },
      ]);
      expect(driverCollection(Thing)).toBe(things); // made once per model
    } finally {
      await connection.close();
    }
  });

  it('a connection not yet opened fails at once with a 503-mapped error, and opens once the server answers', async () => {
    const connection = createConnection();
    const Thing = connection.model('Thing', new Schema({ name: String }));
    try {
      const started = Date.now();
      const err = await Thing.findOne({}).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(toHttpError(err)?.status).toBe(503);
      const port = await unusedPort();
      await expect(openConnection(connection, { url: `mongodb://127.0.0.1:${port}`, dbName: 'x', serverSelectionTimeoutMs: 300 })).rejects.toThrow();
      await openConnection(connection, { url: testUrl(), dbName: 'connect_spec_reopen' });
      await Thing.create({ name: 'stored' });
      expect((await Thing.findOne({}).lean())?.name).toBe('stored');
    } finally {
      await connection.close();
    }
  });
});

describe('ensureIndexes', () => {
  const db = useTestDatabase();

  it('creates declared indexes (and so the collection); a unique index then refuses duplicates', async () => {
    const schema = new Schema({ email: { type: String, required: true }, name: String });
    // query: find a user by email
    schema.index({ email: 1 }, { unique: true });
    const User = db.connection.model('User', schema, 'users');

    await ensureIndexes(db.connection);

    const indexes = await db.connection.collection('users').indexes();
    expect(indexes).toEqual(expect.arrayContaining([expect.objectContaining({ key: { email: 1 }, unique: true })]));

    await User.create({ email: 'ada@example.com', name: 'Ada' });
    const duplicate = await User.create({ email: 'ada@example.com', name: 'Other' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(duplicate).toMatchObject({ code: 11000 });
    expect(await User.countDocuments({ email: 'ada@example.com' })).toBe(1);
  });

  it('does nothing harmful when run again', async () => {
    await ensureIndexes(db.connection);
    await ensureIndexes(db.connection);
    const indexes = await db.connection.collection('users').indexes();
    expect(indexes.map((i) => i.name).sort()).toEqual(['_id_', 'email_1']);
  });
});
