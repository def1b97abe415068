import { connectMongo, databaseReady, DATABASE_TIME_LIMITS } from './connect';
import { openDatabase } from './database';
import { startEmbeddedMongo, type EmbeddedMongo } from './embedded';
import { redactMongoUrl } from './target';

describe('startEmbeddedMongo', () => {
  let server: EmbeddedMongo | undefined;

  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('starts a second server that answers, and stop() ends it', async () => {
    server = await startEmbeddedMongo();
    expect(server.uri).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\/(\?.*)?$/);
    expect(server.uri).not.toBe(`${process.env.TEST_MONGO_URL}`);

    const connection = await connectMongo({ url: server.uri, dbName: 'embedded_spec', serverSelectionTimeoutMs: 500 });
    try {
      expect(await connection.db?.command({ ping: 1 })).toMatchObject({ ok: 1 });
      expect(await databaseReady(connection)).toBe(true);
      await connection.collection('things').insertOne({ n: 1 });
      expect(await connection.collection('things').countDocuments()).toBe(1);

      await server.stop();
      expect(await databaseReady(connection, 500)).toBe(false);
    } finally {
      await connection.close();
    }

    await expect(connectMongo({ url: server.uri, dbName: 'embedded_spec', serverSelectionTimeoutMs: 300 })).rejects.toThrow();
  });

  it('can be stopped twice', async () => {
    server = await startEmbeddedMongo();
    await server.stop();
    await expect(server.stop()).resolves.toBeUndefined();
  });

  it('keeps data per server: a new server starts empty', async () => {
    server = await startEmbeddedMongo();
    const connection = await connectMongo({ url: server.uri, dbName: 'embedded_spec' });
    try {
      expect(await connection.collection('things').countDocuments()).toBe(0);
    } finally {
      await connection.close();
    }
  });
});

describe('openDatabase', () => {
  it('uses the configured server and describes it by its redacted URL', async () => {
    const url = process.env.TEST_MONGO_URL as string;
    const database = await openDatabase({ url, dbName: 'open_spec', poolSize: 3 });
    try {
      expect(database.connection.name).toBe('open_spec');
      expect(database.connection.getClient().options.maxPoolSize).toBe(3);
      expect(database.connection.get('maxTimeMS')).toBe(DATABASE_TIME_LIMITS.queryMs);
      expect(database.connection.getClient().options.socketTimeoutMS).toBe(DATABASE_TIME_LIMITS.socketMs);
      expect(await databaseReady(database.connection)).toBe(true);
      expect(database.description).toBe(`MongoDB at ${redactMongoUrl(url)}, database "open_spec"`);
    } finally {
      await database.close();
    }
    expect(await databaseReady(database.connection)).toBe(false);
  });

  it('gives every query the limit MONGO_QUERY_TIME_MS set, and the socket and the heartbeat half a second more', async () => {
    const database = await openDatabase({ url: process.env.TEST_MONGO_URL as string, dbName: 'open_spec', queryMs: 30_000 });
    try {
      expect(database.connection.get('maxTimeMS')).toBe(30_000);
      expect(database.connection.getClient().options.socketTimeoutMS).toBe(30_500);
      expect(database.connection.getClient().options.connectTimeoutMS).toBe(30_500);
    } finally {
      await database.close();
    }
  });

  it('starts an embedded server when no URL is set, and close() stops it', async () => {
    const database = await openDatabase({ dbName: 'lane_two' });
    const { host, port } = database.connection;
    try {
      expect(database.description).toMatch(/^embedded in-memory server at mongodb:\/\/127\.0\.0\.1:\d+/);
      expect(database.description).toContain('database "lane_two"');
      expect(`${host}:${port}`).not.toBe(new URL((process.env.TEST_MONGO_URL as string).replace('mongodb://', 'http://')).host);
      expect(await databaseReady(database.connection)).toBe(true);
    } finally {
      await database.close();
    }
    await expect(connectMongo({ url: `mongodb://${host}:${port}/`, dbName: 'x', serverSelectionTimeoutMs: 300 })).rejects.toThrow();
  });
});
