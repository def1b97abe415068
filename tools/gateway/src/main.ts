import { GATEWAY, SERVICES, localPort } from '@lib/services';
import pino from 'pino';
import { createGateway } from './gateway';
import { shutdownOnSignals } from './shutdown';
import { resolveTargets } from './targets';

// pino directly rather than @lib/http's createLogger: that barrel would load express and mongoose here.
const logger = pino({ name: 'gateway', level: process.env.LOG_LEVEL || 'info', base: undefined });

function start(): void {
  const port = localPort(GATEWAY);
  const domain = process.env[GATEWAY.domainEnv] || GATEWAY.defaultDomain;
  const targets = resolveTargets(SERVICES, process.env);

  const server = createGateway({
    services: SERVICES,
    domain,
    resolveTarget: (service) => targets.get(service.name) ?? '',
    onProxyError: (service, err) => logger.warn({ service: service.name, code: err.code }, `upstream error: ${err.message}`),
    // the access log: one compact line per request, leveled like the apps' (5xx error, 4xx warn)
    onRequestDone: (line) => logger[line.status >= 500 ? 'error' : line.status >= 400 ? 'warn' : 'info'](line),
  });
  server.on('error', (err: NodeJS.ErrnoException) => {
    logger.error(err.code === 'EADDRINUSE' ? `port ${port} (${GATEWAY.portEnv}) is already in use` : err.message);
    process.exit(1);
  });
  // No host: listens on IPv6 and IPv4, since `*.localhost` may resolve to ::1 first.
  server.listen(port, () => {
    const routes = SERVICES.map((s) => `http://${s.subdomain}.${domain}:${port} -> ${targets.get(s.name)}`);
    logger.info({ port, routes }, 'listening');
  });
  shutdownOnSignals(server, logger);
}

try {
  start();
} catch (err) {
  console.error(`gateway failed to start: ${(err as Error).message}`);
  process.exit(1);
}
