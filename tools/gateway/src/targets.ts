import { GATEWAY, localPort, type ServiceEntry } from '@lib/services';

export const TARGET_ENV = GATEWAY.targetEnv;
/** Locally every service listens on 127.0.0.1 at its own port (npm start). */
export const DEFAULT_TARGET = 'http://127.0.0.1:{port}';

/**
 * Turns the `GATEWAY_TARGET` template into each service's upstream URL: `{name}` is the service
 * name, `{port}` its local port. Under compose it is `http://{name}:3000` (one container per app).
 * Reads every port now, so a bad value stops the gateway at start rather than on a request.
 */
export function resolveTargets(services: readonly ServiceEntry[], env: NodeJS.ProcessEnv): Map<string, string> {
  const template = env[TARGET_ENV] || DEFAULT_TARGET;
  const targets = new Map<string, string>();
  for (const service of services) {
    const url = template.replaceAll('{name}', service.name).replaceAll('{port}', String(localPort(service, env)));
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`${TARGET_ENV} must be an http URL template such as ${DEFAULT_TARGET}, got "${template}"`);
    }
    if (parsed.protocol !== 'http:' || parsed.pathname !== '/' || parsed.search) {
      throw new Error(`${TARGET_ENV} must be an http URL template such as ${DEFAULT_TARGET}, got "${template}"`);
    }
    targets.set(service.name, parsed.origin);
  }
  return targets;
}
