import type { Server } from 'node:http';
import type { Logger } from 'pino';

/**
 * On SIGTERM/SIGINT: stop accepting (`stopAccepting`, every listening address; the server's own
 * close by default), let in-flight requests finish (cut them after drainMs), exit 0.
 */
export function shutdownOnSignals(server: Server, logger: Logger, stopAccepting: () => void = () => server.close(), drainMs = 5_000): void {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    logger.info(`${signal}: shutting down`);
    const force = setTimeout(() => server.closeAllConnections(), drainMs);
    force.unref();
    server.once('close', () => {
      logger.info('shut down');
      process.exit(0);
    });
    stopAccepting();
    server.closeIdleConnections();
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}
