import { normalizedPath } from '@lib/services';

export interface LocationRule {
  path: string;
  pathType: string;
  service: string;
}

/** How ingress-nginx turns one Ingress path into an nginx location, as a test on the normalised path. */
function matches(rule: LocationRule, path: string, useRegex: boolean): boolean {
  // use-regex: `location ~* "^<path>"` for every path of the host, whatever its pathType
  if (useRegex) return new RegExp(`^${rule.path}`, 'i').test(path);
  if (rule.pathType === 'Exact') return path === rule.path;
  if (rule.pathType === 'Prefix') return rule.path === '/' || path === rule.path || path.startsWith(`${rule.path.replace(/\/$/, '')}/`);
  return path.startsWith(rule.path);
}

/**
 * The Service ingress-nginx sends a request target to, among one host's rules: a model of its
 * location choice. nginx decodes %XX, merges slashes and resolves dot segments first
 * (normalizedPath); an exact location wins; otherwise, as ingress-nginx orders locations longest
 * first, the longest matching path. Used to check the Ingress against the local gateway's rule.
 */
export function nginxBackend(rules: readonly LocationRule[], target: string, useRegex: boolean): string | undefined {
  const path = normalizedPath(target);
  if (!useRegex) {
    const exact = rules.find((r) => r.pathType === 'Exact' && r.path === path);
    if (exact) return exact.service;
  }
  const candidates = rules.filter((r) => matches(r, path, useRegex)).sort((a, b) => b.path.length - a.path.length);
  return candidates[0]?.service;
}
