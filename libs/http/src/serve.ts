import { createServer, type Server } from 'node:http';
import type { Express } from 'express';
import type { Lifecycle } from './lifecycle';
import type { Logger } from './logger';

export interface ServeOptions {
  port: number;
  host?: string;
  logger: Logger;
  lifecycle: Lifecycle;
  /** Longest wait for in-flight requests after SIGTERM before connections are cut. */
  drainTimeoutMs?: number;
  /**
   * How long, after SIGTERM, `/readyz` answers 503 while the server still accepts and serves, so a
   * load balancer that polls readiness stops sending before the port closes.
   */
  readinessDelayMs?: number;
  /** Slow-client limits; the defaults suit production (15 s headers, 30 s request, 5 s idle keep-alive). */
  timeouts?: { headersMs?: number; requestMs?: number; keepAliveMs?: number };
  /** Runs after the last request finished: close the database here. */
  onClose?: () => Promise<void>;
}

export interface RunningServer {
  server: Server;
  port: number;
  /** Stops accepting, lets in-flight requests finish (up to the drain timeout), then runs onClose. */
  shutdown(): Promise<void>;
}

export const DEFAULT_DRAIN_TIMEOUT_MS = 10_000;

/** Listens with slow-client timeouts and graceful shutdown; SIGTERM/SIGINT shut down and exit 0. */
export async function serve(app: Express, options: ServeOptions): Promise<RunningServer> {
  const { logger, lifecycle, drainTimeoutMs = DEFAULT_DRAIN_TIMEOUT_MS, readinessDelayMs = 0 } = options;
  const { headersMs = 15_000, requestMs = 30_000, keepAliveMs = 5_000 } = options.timeouts ?? {};
  // Slow clients (slowloris): headers must arrive within headersMs and the whole request within
  // requestMs, checked every second (Node's default check runs only every 30 s).
  const server = createServer({ connectionsCheckingInterval: 1_000 }, app);
  server.requestTimeout = requestMs;
  server.headersTimeout = headersMs;
  server.keepAliveTimeout = keepAliveMs;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  logger.info({ port }, 'listening');

  let closing: Promise<void> | undefined;
  const shutdown = () => {
    closing ??= (async () => {
      lifecycle.shuttingDown = true;
      if (readinessDelayMs > 0) {
        logger.info(`shutting down: not ready, still serving for ${readinessDelayMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, readinessDelayMs));
      }
      logger.info('shutting down: draining in-flight requests');
      const drained = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => {
        logger.warn('drain timeout reached: closing remaining connections');
        server.closeAllConnections();
      }, drainTimeoutMs);
      timer.unref();
      await drained;
      clearTimeout(timer);
      await options.onClose?.();
      logger.info('shut down');
    })();
    return closing;
  };

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      shutdown().then(
        () => process.exit(0),
        (err) => {
          logger.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
  return { server, port, shutdown };
}
