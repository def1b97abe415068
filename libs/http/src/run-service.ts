import { ensureIndexes, openDatabase, type MongoTarget } from '@lib/mongo';
import type { Express } from 'express';
import type { Connection } from 'mongoose';
import { createLifecycle, type Lifecycle } from './lifecycle';
import { createLogger, type Logger } from './logger';
import { serve, type RunningServer } from './serve';
import { readShutdownSettings, type ShutdownSettings } from './shutdown-settings';

export interface ServiceDeps {
  connection: Connection;
  logger: Logger;
  lifecycle: Lifecycle;
}

export interface RunServiceOptions {
  name: string;
  port: number;
  logLevel: string;
  database: MongoTarget;
  createApp(deps: ServiceDeps): Express;
  /** Logged at start, e.g. "writes are not protected". */
  warnings?: string[];
  /** Runs once the indexes exist and before the port opens (seed data, bootstrap users). */
  prepare?(deps: ServiceDeps): Promise<void>;
  /** Read from SHUTDOWN_DELAY_MS and SHUTDOWN_TIMEOUT_MS unless given. */
  shutdown?: ShutdownSettings;
  /** Runs on shutdown after in-flight requests finished and before the database closes (stop jobs). */
  beforeClose?(): Promise<void>;
}

/**
 * What every `main.ts` does: connect, build the app, create indexes, listen, and on SIGTERM drain
 * in-flight requests before closing the database.
 */
export async function runService(options: RunServiceOptions): Promise<RunningServer> {
  const shutdown = options.shutdown ?? readShutdownSettings(process.env);
  const logger = createLogger(options.name, options.logLevel);
  for (const warning of options.warnings ?? []) logger.warn(warning);
  const database = await openDatabase(options.database);
  logger.info(`database: ${database.description}`);
  const lifecycle = createLifecycle();
  const app = options.createApp({ connection: database.connection, logger, lifecycle });
  await ensureIndexes(database.connection);
  await options.prepare?.({ connection: database.connection, logger, lifecycle });
  const onClose = async () => {
    await options.beforeClose?.();
    await database.close();
  };
  return serve(app, { port: options.port, logger, lifecycle, ...shutdown, onClose });
}

/** Runs `start`, turning a start-up failure (bad config, unreachable database) into one clear line and exit 1. */
export function startOrExit(name: string, start: () => Promise<unknown>): void {
  start().catch((err: Error) => {
    console.error(`${name} failed to start: ${err.message}`);
    process.exit(1);
  });
}
