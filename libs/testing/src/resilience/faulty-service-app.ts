import { createLifecycle, createLogger, type ServiceDeps } from '@lib/http';
import { connectMongo, ensureIndexes } from '@lib/mongo';
import type { Express } from 'express';
import type { Connection } from 'mongoose';
import { startFaultyDatabase, type FaultyDatabase } from '../database/faulty-database';
import { listenLoopback } from '../sweeps/raw-client';
import { insideTests } from '../inside-tests';

export interface FaultyServiceApp {
  /** The app's own database, to stop, stall, start and resume. */
  readonly database: FaultyDatabase;
  readonly connection: Connection;
  /** The loopback port the app listens on. */
  readonly port: number;
}

/**
 * A service app on a faulty database of its own (connected with the production time limits,
 * indexes made, `seed` run, listening on loopback) for the describe block's tests that stop or
 * stall the database; everything is closed after them.
 */
export function useFaultyServiceApp(
  createApp: (deps: ServiceDeps) => Express,
  options: { dbName: string; seed?: (connection: Connection) => Promise<void> },
): FaultyServiceApp {
  let database: FaultyDatabase | undefined;
  let connection: Connection | undefined;
  let server: Awaited<ReturnType<typeof listenLoopback>> | undefined;

  beforeAll(async () => {
    database = await startFaultyDatabase();
    connection = await connectMongo({ url: database.url, dbName: options.dbName });
    const app = createApp({ connection, logger: createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent'), lifecycle: createLifecycle() });
    await ensureIndexes(connection);
    await options.seed?.(connection);
    server = await listenLoopback(app);
  }, 30_000);

  afterAll(async () => {
    await server?.close();
    await connection?.close();
    await database?.close();
  });

  return {
    get database() {
      return insideTests(database, 'the faulty service app');
    },
    get connection() {
      return insideTests(connection, 'the faulty service app');
    },
    get port() {
      return insideTests(server, 'the faulty service app').port;
    },
  };
}
