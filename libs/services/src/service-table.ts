/**
 * The deployable services: one row each. The dev runner, the local gateway and (later) the k8s
 * ingress checks all read this table, so a host routes the same way everywhere.
 */
export interface ServiceEntry {
  /** Nx project and image name. */
  name: string;
  /** Host name label at the gateway/ingress: `<subdomain>.<domain>`. */
  subdomain: string;
  /** Env var holding the local port under `npm start`. */
  portEnv: string;
  defaultPort: number;
  /** Prefix of the per-app env vars (`<PREFIX>_MONGO_URL`). */
  envPrefix: string;
  database: string;
}

/** A row named by the table's convention: `<SUBDOMAIN>_PORT`, env prefix and database from the subdomain. */
export const serviceEntry = (name: string, subdomain: string, defaultPort: number): ServiceEntry => ({
  name,
  subdomain,
  portEnv: `${subdomain.toUpperCase()}_PORT`,
  defaultPort,
  envPrefix: subdomain.toUpperCase(),
  database: subdomain,
});

export const SERVICES: readonly ServiceEntry[] = [
  serviceEntry('crm-api', 'crm', 3001),
  serviceEntry('articles-api', 'articles', 3002),
  serviceEntry('news-api', 'news', 3003),
  serviceEntry('users-api', 'users', 3004),
];

/**
 * Paths every app answers for the cluster only: the probes and the Prometheus scrape. Like the
 * public ingress, the gateway does not route them (PROBE_PATH_RULE, in every spelling).
 */
export const INTERNAL_PATHS: readonly string[] = ['/healthz', '/readyz', '/metrics'];

/** Where every app serves its Prometheus metrics (on its own port; one of INTERNAL_PATHS). */
export const METRICS_PATH = '/metrics';

export const GATEWAY = {
  portEnv: 'GATEWAY_PORT',
  defaultPort: 8080,
  domainEnv: 'GATEWAY_DOMAIN',
  defaultDomain: 'localhost',
  /** The template of each service's upstream URL (tools/gateway/src/targets.ts). */
  targetEnv: 'GATEWAY_TARGET',
} as const;

/** The port a service listens on locally, from its env var or the default. */
export function localPort(entry: { portEnv: string; defaultPort: number }, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[entry.portEnv];
  if (raw === undefined || raw === '') return entry.defaultPort;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535) throw new Error(`${entry.portEnv} must be a port number (1-65535), got "${raw}"`);
  return port;
}

/** The service that serves a Host header value (`articles.localhost:8080` → articles-api), if any. */
export function serviceForHost(host: string | undefined, domain: string, services: readonly ServiceEntry[] = SERVICES): ServiceEntry | undefined {
  if (!host) return undefined;
  const name = host.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  return services.find((s) => name === `${s.subdomain}.${domain.toLowerCase()}`);
}
