import type { RequestHandler } from 'express';
import type { Connection } from 'mongoose';
import { Counter, Gauge, Histogram, collectDefaultMetrics, register, type Metric } from 'prom-client';
import { requestMetrics } from './request-metrics';

/*
 * Prometheus metrics of the process, served at `GET /metrics` (METRICS_PATH of @lib/services) on the
 * app's own port (text format 0.0.4). No credentials: like the probe paths, the public entry
 * (gateway, Ingress) never routes it, so only what reaches the pod directly (Prometheus, inside the
 * cluster) reads it.
 */

/** prom-client's default registry: every metric of the process, whoever defined it. */
export const metricsRegistry = register;

// the registry reads name, help, type and get() (see ./request-metrics)
metricsRegistry.registerMetric(requestMetrics.histogram as unknown as Metric);
metricsRegistry.registerMetric(requestMetrics.counter as unknown as Metric);

let processMetrics = false;
/**
 * Node's default metrics (CPU, memory, heap, event loop lag, GC, handles), once per process: started
 * by startOrExit, the process entry, not by the app builder or runService, which tests run in a jest
 * worker (their process-wide observers would keep the test file's module graph alive for the rest of
 * the test run).
 */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: metricsRegistry });
}

/** The `/metrics` handler: every metric of the registry, in Prometheus' text format. */
export function metricsHandler(): RequestHandler {
  return (_req, res, next) => {
    metricsRegistry.metrics().then((text) => {
      res.setHeader('Content-Type', metricsRegistry.contentType);
      res.setHeader('Cache-Control', 'no-store');
      res.end(text);
    }, next);
  };
}

/** A counter of the registry, made at its first use (a module loaded twice, as in tests, gets the same one). */
export function counter<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
  return (metricsRegistry.getSingleMetric(name) as Counter<L> | undefined) ?? new Counter({ name, help, labelNames, registers: [metricsRegistry] });
}

/** A histogram of the registry, made at its first use (like `counter`). */
export function histogram<L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]): Histogram<L> {
  return (metricsRegistry.getSingleMetric(name) as Histogram<L> | undefined) ?? new Histogram({ name, help, labelNames, buckets, registers: [metricsRegistry] });
}

/**
 * A gauge of the registry read when scraped: `collect` sets its value (it may query the database:
 * a scrape that fails leaves the gauge as it was). Made at its first use; a module loaded again (as
 * in tests) replaces the reader with its own.
 */
export function gauge(name: string, help: string, collect: (set: (value: number) => void) => Promise<void> | void): Gauge {
  const existing = metricsRegistry.getSingleMetric(name) as (Gauge & { reader?: typeof collect }) | undefined;
  if (existing) {
    existing.reader = collect;
    return existing;
  }
  const made: Gauge & { reader?: typeof collect } = new Gauge({
    name,
    help,
    registers: [metricsRegistry],
    async collect() {
      await Promise.resolve(made.reader?.((value) => this.set(value))).catch(() => undefined);
    },
  });
  made.reader = collect;
  return made;
}

// --- MongoDB connection pools -------------------------------------------------------------------

/** The slice of the driver's ConnectionPool read at scrape time (its public getters). */
interface PoolView {
  totalConnectionCount: number;
  availableConnectionCount: number;
  currentCheckedOutCount: number;
  waitQueueSize: number;
}
interface ClientView {
  topology?: { s?: { servers?: Map<string, { pool?: PoolView }> } };
  on(event: string, listener: (event: { reason?: string }) => void): unknown;
}

const databases = new Map<Connection, string>();
const watchedClients = new WeakSet<object>();

function* pools(): Generator<[string, string, PoolView]> {
  for (const [connection, name] of databases) {
    const client = connection.getClient() as unknown as ClientView | undefined;
    for (const [address, server] of client?.topology?.s?.servers ?? []) if (server.pool) yield [name, address, server.pool];
  }
}

const poolGauge = (name: string, help: string, read: (pool: PoolView) => number) =>
  new Gauge({
    name,
    help,
    labelNames: ['database', 'server'],
    registers: [metricsRegistry],
    // read when scraped: nothing is counted per operation
    collect() {
      this.reset();
      for (const [database, server, pool] of pools()) this.set({ database, server }, read(pool));
    },
  });

poolGauge('mongodb_pool_connections', 'Connections of the driver pool (idle, connecting and checked out)', (p) => p.totalConnectionCount);
poolGauge('mongodb_pool_checked_out_connections', 'Connections checked out of the pool (an operation in progress on each)', (p) => p.currentCheckedOutCount);
poolGauge('mongodb_pool_idle_connections', 'Idle connections in the pool', (p) => p.availableConnectionCount);
poolGauge('mongodb_pool_wait_queue_size', 'Operations waiting for a connection of the pool', (p) => p.waitQueueSize);
const checkoutFailures = counter('mongodb_pool_checkout_failures_total', 'Connection check-outs that failed (timeout: the pool stayed full for waitQueueTimeoutMS)', ['database', 'reason']);
const poolCleared = counter('mongodb_pool_cleared_total', 'Times the driver cleared a pool (server unreachable or failed over)', ['database']);

/**
 * Reports the connection's pool: size, checked out, idle and waiting, read from the driver when
 * scraped, and check-out failures and pool clears from the driver's CMAP events (rare). Call once
 * the connection is open (its MongoClient exists); calling again after a reconnect is harmless.
 */
export function watchDatabasePool(name: string, connection: Connection): void {
  databases.set(connection, name);
  const client = connection.getClient() as unknown as ClientView | undefined;
  if (!client || watchedClients.has(client)) return;
  watchedClients.add(client);
  client.on('connectionCheckOutFailed', (event) => checkoutFailures.inc({ database: name, reason: event.reason ?? 'unknown' }));
  client.on('connectionPoolCleared', () => poolCleared.inc({ database: name }));
}
export { DURATION_BUCKETS, UNMATCHED_ROUTE } from './request-metrics';
