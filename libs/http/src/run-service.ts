import { createDatabase, ensureIndexes, type MongoTarget } from '@lib/mongo';
import type { TrustedProxies } from '@lib/services';
import type { Express } from 'express';
import type { Connection } from 'mongoose';
import { createLifecycle, type Lifecycle } from './lifecycle';
import { createLogger, type Logger } from './logger';
import { watchDatabasePool } from './metrics';
import { serve, type RunningServer } from './serve';
import { runStartUp, type RetryDelays } from './start-up';
import { readShutdownSettings, type ShutdownSettings } from './shutdown-settings';
import { flushTracing } from './tracing';
import { returnIdleMemory } from './idle-memory';
import { collectProcessMetrics } from './metrics';
import { trustProxies } from './trust-proxy';

export interface ServiceDeps {
  connection: Connection;
  logger: Logger;
  lifecycle: Lifecycle;
}

export interface RunServiceOptions {
  name: string;
  port: number;
  /** The address to listen on (BIND_ADDRESS); loopback unless given. */
  host?: string;
  /** Whose X-Forwarded-For gives the client's address (TRUST_PROXY); nobody unless given. */
  trustedProxies?: TrustedProxies;
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
  /** Waits between start-up attempts; START_UP_RETRY unless given. */
  startUpRetry?: RetryDelays;
}

type ConfigRunOptions = 'name' | 'port' | 'host' | 'trustedProxies' | 'logLevel' | 'database';

/** The part of a service's run options read straight from its config: name, port, address, trusted proxies, log level, database. */
export function runOptionsFromConfig(
  name: string,
  config: { port: number; bindAddress: string; trustedProxies: TrustedProxies; logLevel: string; database: MongoTarget },
): Pick<RunServiceOptions, ConfigRunOptions> {
  return { name, port: config.port, host: config.bindAddress, trustedProxies: config.trustedProxies, logLevel: config.logLevel, database: config.database };
}

export interface RunningService extends RunningServer {
  /** Settles once the start-up steps succeeded (true) or shutdown stopped them (false); rejects (and the process exits 1) on an error no retry mends. */
  started: Promise<boolean>;
}

/**
 * What every `main.ts` does: build the app on a connection not yet open and listen at once
 * (`/healthz` 200; `/readyz` and every route 503 meanwhile), then reach the database, create the
 * indexes and run `prepare`, each retried until it succeeds, so that a database unreachable at
 * start delays readiness instead of ending the process. On SIGTERM: drain in-flight requests, then
 * close the database.
 */
export async function runService(options: RunServiceOptions): Promise<RunningService> {
  const shutdown = options.shutdown ?? readShutdownSettings(process.env);
  const logger = createLogger(options.name, options.logLevel);
  for (const warning of options.warnings ?? []) logger.warn(warning);
  const database = await createDatabase(options.database);
  logger.info(`database: ${database.description}`);
  const lifecycle = createLifecycle();
  lifecycle.starting = true;
  const deps: ServiceDeps = { connection: database.connection, logger, lifecycle };
  const app = options.createApp(deps);
  trustProxies(app, options.trustedProxies);
  logger.info(`client addresses: X-Forwarded-For believed from ${options.trustedProxies?.description ?? 'no proxy'} (TRUST_PROXY)`);
  const stopStartUp = new AbortController();
  let started: Promise<boolean> = Promise.resolve(false);
  const onClose = async () => {
    stopStartUp.abort();
    await started.catch(() => undefined);
    await options.beforeClose?.();
    await database.close();
    await flushTracing(); // the spans of the last requests
  };
  const running = await serve(app, { port: options.port, host: options.host, logger, lifecycle, ...shutdown, onClose });
  started = runStartUp(
    [
      { name: 'reaching the database', run: () => database.open().then(() => watchDatabasePool(options.database.dbName, database.connection)) },
      { name: 'creating indexes', run: () => ensureIndexes(database.connection) },
      ...(options.prepare ? [{ name: 'preparing', run: () => options.prepare!(deps) }] : []),
    ],
    { logger, signal: stopStartUp.signal, delays: options.startUpRetry },
  ).then((done) => {
    if (done) {
      lifecycle.starting = false;
      logger.info('started'); // database reached, indexes created, prepared: /readyz can turn 200
    }
    return done;
  });
  started.catch((err: Error) => {
    logger.error({ err }, `start-up failed: ${err.message}`);
    void running.shutdown().finally(() => process.exit(1));
  });
  return { ...running, started };
}

/**
 * The process entry of every main.ts: starts the process metrics and lets V8 return an idle
 * process's memory (./idle-memory), then runs `start`, turning a
 * start-up failure (bad config, a port in use) into one clear line and exit 1; an unreachable
 * database is not one (runService keeps trying). The process metrics start here, not in runService,
 * because tests run runService inside a jest worker, where prom-client's GC observer (registered on
 * node's process-wide perf_hooks, never removed) would keep the test file's whole module graph
 * alive until the worker ends.
 */
export function startOrExit(name: string, start: () => Promise<unknown>): void {
  collectProcessMetrics();
  returnIdleMemory();
  start().catch((err: Error) => {
    console.error(`${name} failed to start: ${err.message}`);
    process.exit(1);
  });
}
