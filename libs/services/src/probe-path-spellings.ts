/**
 * Spellings of the probe paths that some part of the chain (http-proxy, nginx, Express) turns back
 * into `/healthz`, `/readyz` or `/metrics`, or that differ only in case: every router in front of the apps (the
 * local gateway, the Ingress rules) must refuse them all. Tests of both share this list.
 */
export const PROBE_PATH_SPELLINGS: readonly string[] = [
  '/readyz',
  '/healthz',
  '/readyz/',
  '/healthz/',
  '//readyz',
  '///healthz',
  '/./readyz',
  '/x/../readyz',
  '/%72eadyz',
  '/%2Freadyz',
  '/readyz%2F',
  '/re%61dyz',
  '/%68ealthz',
  '/healthz?x',
  '/readyz?probe=1',
  '/readyz#x',
  '/readyz\\?x',
  '/readyz;x',
  '/READYZ',
  '/HealthZ/',
  'http://articles.localhost/readyz',
  'http://articles.localhost//healthz/',
  '/metrics',
  '/metrics/',
  '//metrics',
  '/./metrics',
  '/x/../metrics',
  '/%6detrics',
  '/metrics%2F',
  '/metrics?name[]=http_requests_total',
  '/metrics;x',
  '/metrics\\?x',
  '/METRICS',
  '/Metrics/',
  'http://articles.localhost/metrics',
];

/** Paths that only look like probe paths, or are ordinary: routed to the app as usual. */
export const ROUTED_PATHS: readonly string[] = ['/', '/articles', '/articles/1?q=readyz', '/news/readyz', '/x/healthz', '/openapi.json', '/%2e%2e/articles', '/articles?q=metrics', '/x/metrics'];
