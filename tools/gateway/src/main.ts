import { GATEWAY, SERVICES, localPort } from '@lib/services';
import pino from 'pino';
import { createGateway } from './gateway';
import { shutdownOnSignals } from './shutdown';

// pino directly rather than @lib/http's createLogger: that barrel would load express and mongoose here.
const logger = pino({ name: 'gateway', level: process.env.LOG_LEVEL || 'info' });

function start(): void {
  const port = localPort(GATEWAY);
  const domain = process.env[GATEWAY.domainEnv] || GATEWAY.defaultDomain;
  // Read every service port now so a bad *_PORT value stops the gateway at start, not on a request.
  const ports = new Map(SERVICES.map((s) => [s.name, localPort(s)]));

  const server = createGateway({
    services: SERVICES,
    domain,
    resolvePort: (service) => ports.get(service.name) ?? service.defaultPort,
    onProxyError: (service, err) => logger.warn({ service: service.name, code: err.code }, `upstream error: ${err.message}`),
  });
  server.on('error', (err: NodeJS.ErrnoException) => {
    logger.error(err.code === 'EADDRINUSE' ? `port ${port} (${GATEWAY.portEnv}) is already in use` : err.message);
    process.exit(1);
  });
  // No host: listens on IPv6 and IPv4, since `*.localhost` may resolve to ::1 first.
  server.listen(port, () => {
    const routes = SERVICES.map((s) => `http://${s.subdomain}.${domain}:${port} -> 127.0.0.1:${ports.get(s.name)}`);
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
