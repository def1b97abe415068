import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import { connectMongo, startEmbeddedMongo, type EmbeddedProcess } from '@lib/mongo';
import { insideTests } from '../inside-tests';

export interface TestDatabase {
  /** The connection of this test file's own database (available inside tests). */
  readonly connection: Connection;
  readonly dbName: string;
  /** The URL of the server the database is on (without the database name). */
  readonly serverUrl: string;
  /** Empties every collection of the database (counters too), keeping indexes. */
  clear(): Promise<void>;
}

/**
 * Time limits of the test files' connections: one embedded server serves every test file of a run,
 * in parallel, on a shared machine, so an answer can take seconds that in production would mean a
 * stalled server; a request of an app on such a connection is answered 503 only after 60 s (the
 * request deadline, libs/http request-deadline.ts). The fault tests (resilience specs) connect with
 * the production limits.
 */
export const TEST_TIME_LIMITS = { serverSelectionMs: 5_000, connectMs: 10_000, socketMs: 15_000, waitQueueMs: 15_000, queryMs: 12_000, requestBoundMs: 60_000 };

/**
 * Gives the calling test file its own database on the run's server (see global-setup), connected
 * before its tests and dropped after them. `ownServer`: on an embedded server of its own instead,
 * for processes that connect with the production time limits (replicas): on the run's server, busy
 * with every other test file's writes (one at a time: libs/mongo write-serializer), they would see
 * waits those limits call a stalled database.
 */
export function useTestDatabase(options: { monitorCommands?: boolean; ownServer?: boolean } = {}): TestDatabase {
  const dbName = `test_${process.env.JEST_WORKER_ID ?? '0'}_${randomBytes(4).toString('hex')}`;
  let connection: Connection | undefined;
  let server: EmbeddedProcess | undefined;
  let serverUrl: string | undefined;

  beforeAll(async () => {
    if (options.ownServer) server = await startEmbeddedMongo();
    serverUrl = server?.uri ?? process.env.TEST_MONGO_URL;
    if (!serverUrl) throw new Error('TEST_MONGO_URL is not set: run tests through jest with the shared preset');
    connection = await connectMongo({ url: serverUrl, dbName, monitorCommands: options.monitorCommands, limits: TEST_TIME_LIMITS });
  });

  afterAll(async () => {
    if (connection) {
      // The embedded server lacks dropDatabase; its data dies with the run anyway.
      await connection.dropDatabase().catch(() => undefined);
      await connection.close();
    }
    await server?.stop();
  });

  return {
    dbName,
    get serverUrl() {
      return insideTests(serverUrl, 'the test database');
    },
    get connection() {
      return insideTests(connection, 'the test database');
    },
    async clear() {
      if (!connection) return;
      await Promise.all(Object.values(connection.models).map((model) => model.deleteMany({})));
    },
  };
}
