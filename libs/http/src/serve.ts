import { createServer, type Server } from 'node:http';
import type { Express } from 'express';
import type { Lifecycle } from './lifecycle';
import type { Logger } from './logger';

export interface ServeOptions {
  port: number;
  /** The address to listen on; LOOPBACK unless given (a container passes 0.0.0.0). */
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
  /** Slow-client and keep-alive limits; the defaults (SERVER_TIMEOUTS) suit production. */
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

/** Where a server listens unless told: this machine only. */
export const LOOPBACK = '127.0.0.1';

/**
 * How long a proxy in front keeps an idle connection to an app before it closes it: ingress-nginx's
 * `upstream-keepalive-timeout` (its default, stated in k8s/ingress-nginx/); the local gateway keeps
 * none (http-proxy opens a connection per request).
 */
export const PROXY_KEEPALIVE_MS = 60_000;

/**
 * The server's limits. An idle keep-alive connection is kept 65 s, longer than the proxy keeps it,
 * so the proxy always closes first and never sends a request on a connection Node is closing (a
 * 502 at the ingress). Headers and the whole request get 66 s, above the keep-alive time (Node
 * requires headers <= request) and above ingress-nginx's own 60 s client limits; behind the
 * ingress a request reaches the app only once nginx has read it all, so these bound only clients
 * that reach a pod directly. tools/deploy-checks compares them with the Ingress.
 */
export const SERVER_TIMEOUTS = { headersMs: 66_000, requestMs: 66_000, keepAliveMs: 65_000 } as const;

/** While draining, how often connections that finished their request are closed. */
const DRAIN_SWEEP_MS = 100;

/** Listens with slow-client timeouts and graceful shutdown; SIGTERM/SIGINT shut down and exit 0. */
export async function serve(app: Express, options: ServeOptions): Promise<RunningServer> {
  const { logger, lifecycle, drainTimeoutMs = DEFAULT_DRAIN_TIMEOUT_MS, readinessDelayMs = 0 } = options;
  const { headersMs, requestMs, keepAliveMs } = { ...SERVER_TIMEOUTS, ...options.timeouts };
  // Slow clients (slowloris): headers must arrive within headersMs and the whole request within
  // requestMs, checked every second (Node's default check runs only every 30 s).
  const server = createServer({ connectionsCheckingInterval: 1_000 }, app);
  server.requestTimeout = requestMs;
  server.headersTimeout = headersMs;
  server.keepAliveTimeout = keepAliveMs;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? LOOPBACK, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  logger.info({ port, host: options.host ?? LOOPBACK }, 'listening');

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
      // A keep-alive connection would otherwise stay open for keepAliveMs after its last answer:
      // answers from now on say `Connection: close`, idle connections are closed now, and those
      // still answering are closed as soon as their answer is out.
      server.prependListener('request', (_req, res) => res.setHeader('Connection', 'close'));
      server.closeIdleConnections();
      const sweep = setInterval(() => server.closeIdleConnections(), DRAIN_SWEEP_MS);
      sweep.unref();
      const timer = setTimeout(() => {
        logger.warn('drain timeout reached: closing remaining connections');
        server.closeAllConnections();
      }, drainTimeoutMs);
      timer.unref();
      await drained;
      clearTimeout(timer);
      clearInterval(sweep);
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
