import { GATEWAY, SERVICES, localPort } from '@lib/services';
import pino from 'pino';
import { createGateway } from './gateway';
import { gatewayAddresses, listenOn } from './listen';
import { shutdownOnSignals } from './shutdown';
import { resolveTargets } from './targets';

// pino directly rather than @lib/http's createLogger: that barrel would load express and mongoose here.
const logger = pino({ name: 'gateway', level: process.env.LOG_LEVEL || 'info', base: undefined });

async function start(): Promise<void> {
  const port = localPort(GATEWAY);
  const addresses = gatewayAddresses(process.env);
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
  const listening = await listenOn(server, port, addresses).catch((err: NodeJS.ErrnoException) => {
    throw new Error(err.code === 'EADDRINUSE' ? `port ${port} (${GATEWAY.portEnv}) is already in use` : err.message);
  });
  const routes = SERVICES.map((s) => `http://${s.subdomain}.${domain}:${port} -> ${targets.get(s.name)}`);
  logger.info({ port, addresses: listening.addresses, routes }, 'listening');
  shutdownOnSignals(server, logger, listening.close);
}

start().catch((err: Error) => {
  console.error(`gateway failed to start: ${err.message}`);
  process.exit(1);
});
