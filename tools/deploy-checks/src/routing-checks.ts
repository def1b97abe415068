import { PROBE_PATH_RULE, PROBE_PATH_SPELLINGS, ROUTED_PATHS, isProbeTarget } from '@lib/services';
import { nginxBackend } from './nginx-locations';
import { containersOf, podLabels, selects, workloads } from './pod';
import { describe, find, type Resource } from './resource';

interface ServicePort {
  name?: string;
  port: number;
  targetPort?: string | number;
}
interface ServiceSpec {
  selector?: Record<string, string>;
  ports: ServicePort[];
}

/** The pod-less Service the probe paths are sent to (k8s/base/not-routed.yaml). */
export const SINK = 'not-routed';

export interface IngressRoute {
  ingress: string;
  host: string;
  path: string;
  pathType: string;
  service: string;
  port: { name?: string; number?: number };
}

/** Every host/path → Service rule of every Ingress. */
export function ingressRoutes(resources: readonly Resource[]): IngressRoute[] {
  return resources
    .filter((r) => r.kind === 'Ingress')
    .flatMap((ingress) =>
      ((ingress.spec as { rules?: { host?: string; http?: { paths: { path: string; pathType: string; backend: { service: { name: string; port: IngressRoute['port'] } } }[] } }[] }).rules ?? []).flatMap(
        (rule) =>
          (rule.http?.paths ?? []).map((p) => ({
            ingress: ingress.metadata.name,
            host: rule.host ?? '',
            path: p.path,
            pathType: p.pathType,
            service: p.backend.service?.name,
            port: p.backend.service?.port ?? {},
          })),
      ),
    );
}

/** Every Service with a selector selects the pods of a Deployment or StatefulSet, on a port they have. */
export function serviceProblems(resources: readonly Resource[]): string[] {
  const problems: string[] = [];
  for (const service of resources.filter((r) => r.kind === 'Service')) {
    const spec = service.spec as ServiceSpec;
    if (!spec.selector) continue; // only the probe-path sink, checked with the ingress
    const selected = workloads(resources).filter((w) => selects(spec.selector, podLabels(w)));
    if (selected.length !== 1) {
      problems.push(`${describe(service)}: selects ${selected.length} workloads, expected 1`);
      continue;
    }
    const ports = containersOf(selected[0]).flatMap((c) => c.ports ?? []);
    for (const port of spec.ports) {
      const target = port.targetPort ?? port.port;
      const found = typeof target === 'number' ? ports.some((p) => p.containerPort === target) : ports.some((p) => p.name === target);
      if (!found) problems.push(`${describe(service)}: port ${port.port} targets ${target}, which ${describe(selected[0])} does not expose`);
    }
  }
  return problems;
}

const USE_REGEX = 'nginx.ingress.kubernetes.io/use-regex';
const isProbeRule = (route: IngressRoute) => route.path === PROBE_PATH_RULE && route.pathType === 'ImplementationSpecific';

/** True when ingress-nginx reads the paths of this Ingress as regular expressions. */
export const usesRegex = (ingress: Resource) => ingress.metadata.annotations?.[USE_REGEX] === 'true';

/**
 * Backends name existing Services and ports; HTTPS only; the probe paths, in every spelling, go
 * only to the pod-less sink: each host routing `/` has the gateway's rule (PROBE_PATH_RULE) as a
 * regex path (use-regex on) to that sink, and the routes it yields for every known spelling are
 * the gateway's.
 */
export function ingressProblems(resources: readonly Resource[]): string[] {
  const problems: string[] = [];
  for (const route of ingressRoutes(resources)) {
    const at = `Ingress/${route.ingress} ${route.host}${route.path}`;
    const service = find(resources, 'Service', route.service);
    if (!service) {
      problems.push(`${at}: Service ${route.service} does not exist`);
      continue;
    }
    const spec = service.spec as ServiceSpec;
    if (!spec.ports.some((p) => (route.port.name !== undefined ? p.name === route.port.name : p.port === route.port.number))) {
      problems.push(`${at}: Service ${route.service} has no port ${route.port.name ?? route.port.number}`);
    }
    if (isProbeRule(route) && spec.selector) problems.push(`${at}: a probe path reaches pods of Service ${route.service}`);
    if (!isProbeRule(route) && !spec.selector) problems.push(`${at}: routed to Service ${route.service}, which has no pods`);
  }
  for (const ingress of resources.filter((r) => r.kind === 'Ingress')) {
    const annotations = ingress.metadata.annotations ?? {};
    for (const key of ['nginx.ingress.kubernetes.io/ssl-redirect', 'nginx.ingress.kubernetes.io/force-ssl-redirect', USE_REGEX]) {
      if (annotations[key] !== 'true') problems.push(`${describe(ingress)}: ${key} is not "true"`);
    }
    const tlsHosts = new Set(((ingress.spec as { tls?: { hosts?: string[]; secretName?: string }[] }).tls ?? []).flatMap((t) => (t.secretName ? (t.hosts ?? []) : [])));
    const routes = ingressRoutes([ingress]);
    for (const host of new Set(routes.map((r) => r.host))) {
      if (!tlsHosts.has(host)) problems.push(`${describe(ingress)}: host "${host}" has no TLS certificate`);
      const hostRoutes = routes.filter((r) => r.host === host);
      if (!hostRoutes.some((r) => r.path === '/')) continue;
      if (!hostRoutes.some(isProbeRule)) problems.push(`${describe(ingress)}: host ${host} routes the probe paths to the app`);
      const differ = [...PROBE_PATH_SPELLINGS, ...ROUTED_PATHS].filter(
        (target) => (nginxBackend(hostRoutes, target, usesRegex(ingress)) === SINK) !== isProbeTarget(target),
      );
      if (differ.length > 0) problems.push(`${describe(ingress)}: host ${host} routes ${differ.join(' ')} unlike the gateway`);
    }
  }
  return problems;
}
