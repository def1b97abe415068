import { INTERNAL_PATHS, PROBE_PATH_RULE, PROBE_PATH_SPELLINGS, ROUTED_PATHS, isProbeTarget, normalizedPath } from '@lib/services';
import { SINK } from './routing-checks';
import { describe, find, type Resource } from './resource';

interface PathMatch {
  type?: 'Exact' | 'PathPrefix' | 'RegularExpression';
  value?: string;
}
interface BackendRef {
  name: string;
  kind?: string;
  port?: number;
}
interface Filter {
  type: string;
  requestRedirect?: { scheme?: string; statusCode?: number };
  responseHeaderModifier?: { set?: { name: string; value: string }[]; add?: { name: string; value: string }[] };
}
interface RouteRule {
  matches?: { path?: PathMatch }[];
  filters?: Filter[];
  backendRefs?: BackendRef[];
}
interface RouteSpec {
  parentRefs?: { name: string; kind?: string; sectionName?: string }[];
  hostnames?: string[];
  rules?: RouteRule[];
}
interface Listener {
  name: string;
  protocol: string;
  port: number;
  hostname?: string;
  tls?: { mode?: string; certificateRefs?: { name: string; kind?: string }[] };
}

/** The regular expression of the HTTPRoutes' probe-path rule: PROBE_PATH_RULE, case-insensitive, anchored, whatever follows. */
export const PROBE_PATH_REGEX = `(?i)^${PROBE_PATH_RULE}.*`;

/** One path match of an HTTPRoute, with the Service its rule sends to. */
export interface GatewayPathRule {
  type: 'Exact' | 'PathPrefix' | 'RegularExpression';
  value: string;
  service: string | undefined;
}

const routeSpec = (r: Resource) => r.spec as RouteSpec;
export const httpRoutes = (resources: readonly Resource[]) => resources.filter((r) => r.kind === 'HTTPRoute');

/** The path rules of one HTTPRoute (a rule without matches matches every path, as PathPrefix /). */
export function pathRules(route: Resource): GatewayPathRule[] {
  return (routeSpec(route).rules ?? []).flatMap((rule) => {
    const service = rule.backendRefs?.[0]?.name;
    const matches = rule.matches?.length ? rule.matches : [{ path: { type: 'PathPrefix' as const, value: '/' } }];
    return matches.map(({ path }) => ({ type: path?.type ?? 'PathPrefix', value: path?.value ?? '/', service }));
  });
}

/** `(?i)x` → /^(?:x)$/i: RE2's inline flag, and the full match Envoy applies to the path. */
function fullMatch(value: string): RegExp {
  const insensitive = value.startsWith('(?i)');
  return new RegExp(`^(?:${insensitive ? value.slice(4) : value})$`, insensitive ? 'i' : '');
}

/** Gateway API's PathPrefix: whole path elements, case-sensitive (`/readyz` matches `/readyz/x`, not `/readyzx`). */
const prefixMatches = (prefix: string, path: string) => prefix === '/' || path === prefix.replace(/\/$/, '') || path.startsWith(`${prefix.replace(/\/$/, '')}/`);

/**
 * The Service an HTTPRoute sends a request target to: a model of Envoy Gateway. The path is
 * normalised first (normalizedPath: the ClientTrafficPolicy of k8s/gateway-api/envoy-gateway.yaml);
 * an Exact match wins, then a RegularExpression one (full match), then the longest PathPrefix.
 */
export function gatewayBackend(rules: readonly GatewayPathRule[], target: string): string | undefined {
  const path = normalizedPath(target);
  const exact = rules.find((r) => r.type === 'Exact' && r.value === path);
  if (exact) return exact.service;
  const regex = rules.find((r) => r.type === 'RegularExpression' && fullMatch(r.value).test(path));
  if (regex) return regex.service;
  return rules.filter((r) => r.type === 'PathPrefix' && prefixMatches(r.value, path)).sort((a, b) => b.value.length - a.value.length)[0]?.service;
}

/** `*.example.com` covers `crm.example.com` (one label), a plain hostname only itself, none every host. */
const listenerCovers = (listener: string | undefined, host: string) =>
  listener === undefined || listener === host || (listener.startsWith('*.') && host.endsWith(listener.slice(1)) && !host.slice(0, -listener.length + 1).includes('.'));

const isRedirectToHttps = (rule: RouteRule) => !rule.backendRefs?.length && (rule.filters ?? []).some((f) => f.type === 'RequestRedirect' && f.requestRedirect?.scheme === 'https');

const setsHsts = (rule: RouteRule) =>
  (rule.filters ?? []).some((f) => f.type === 'ResponseHeaderModifier' && [...(f.responseHeaderModifier?.set ?? []), ...(f.responseHeaderModifier?.add ?? [])].some((h) => h.name.toLowerCase() === 'strict-transport-security' && /max-age=\d{7,}/.test(h.value)));

/**
 * The Gateway API entry, checked like the Ingress: every HTTPRoute hangs on a listener of an existing
 * Gateway; app traffic only on HTTPS listeners that end TLS with a certificate and cover the route's
 * hosts; plain HTTP listeners only redirect to HTTPS; backends are existing Services and ports, apps
 * get Strict-Transport-Security; every host has a rule per INTERNAL_PATHS entry and the
 * PROBE_PATH_REGEX rule to the pod-less sink, and routes every known spelling like the local gateway.
 */
export function gatewayApiProblems(resources: readonly Resource[]): string[] {
  const problems: string[] = [];
  for (const route of httpRoutes(resources)) {
    const at = describe(route);
    const spec = routeSpec(route);
    const listeners: Listener[] = [];
    for (const parent of spec.parentRefs ?? []) {
      const gateway = find(resources, 'Gateway', parent.name);
      const listener = ((gateway?.spec as { listeners?: Listener[] } | undefined)?.listeners ?? []).find((l) => l.name === parent.sectionName);
      if (!gateway) problems.push(`${at}: Gateway ${parent.name} does not exist`);
      else if (!listener) problems.push(`${at}: Gateway ${parent.name} has no listener ${parent.sectionName ?? '(none named)'}; attach to one listener by sectionName`);
      else listeners.push(listener);
    }
    if (listeners.length === 0) problems.push(`${at}: attached to no listener`);

    const rules = spec.rules ?? [];
    const redirectOnly = rules.length > 0 && rules.every(isRedirectToHttps);
    for (const listener of listeners) {
      if (listener.protocol === 'HTTP' && !redirectOnly) problems.push(`${at}: serves plain HTTP on listener ${listener.name} instead of redirecting to HTTPS`);
      if (listener.protocol === 'HTTPS' && !(listener.tls?.mode === 'Terminate' && listener.tls.certificateRefs?.length)) problems.push(`${at}: listener ${listener.name} ends no TLS with a certificate`);
      for (const host of spec.hostnames ?? []) if (!listenerCovers(listener.hostname, host)) problems.push(`${at}: host ${host} is outside listener ${listener.name} (${listener.hostname})`);
    }
    if (redirectOnly) continue;

    for (const rule of rules) {
      for (const backend of rule.backendRefs ?? []) {
        const service = (backend.kind ?? 'Service') === 'Service' ? find(resources, 'Service', backend.name) : undefined;
        if (!service) {
          problems.push(`${at}: backend Service ${backend.name} does not exist`);
          continue;
        }
        const ports = (service.spec as { ports: { port: number }[] }).ports;
        if (!ports.some((p) => p.port === backend.port)) problems.push(`${at}: Service ${backend.name} has no port ${backend.port}`);
        const hasPods = Boolean((service.spec as { selector?: object }).selector);
        if (backend.name === SINK ? hasPods : !hasPods) problems.push(`${at}: ${backend.name === SINK ? 'the probe-path sink has pods' : `routed to Service ${backend.name}, which has no pods`}`);
        if (hasPods && !setsHsts(rule)) problems.push(`${at}: responses from ${backend.name} get no Strict-Transport-Security`);
      }
    }

    const paths = pathRules(route);
    const toSink = paths.filter((p) => p.service === SINK);
    for (const internal of INTERNAL_PATHS) {
      if (!toSink.some((p) => p.type === 'PathPrefix' && p.value === internal)) problems.push(`${at}: no PathPrefix ${internal} rule to ${SINK}`);
    }
    if (!toSink.some((p) => p.type === 'RegularExpression' && p.value === PROBE_PATH_REGEX)) problems.push(`${at}: no RegularExpression ${PROBE_PATH_REGEX} rule to ${SINK}`);
    const differ = [...PROBE_PATH_SPELLINGS, ...ROUTED_PATHS].filter((target) => (gatewayBackend(paths, target) === SINK) !== isProbeTarget(target));
    if (differ.length > 0) problems.push(`${at}: routes ${differ.join(' ')} unlike the gateway`);
  }
  return problems;
}

/** host → Service of the HTTPRoutes' app rule (PathPrefix /). */
export function gatewayHostServices(resources: readonly Resource[]): Record<string, string | undefined> {
  return Object.fromEntries(
    httpRoutes(resources).flatMap((route) => {
      const app = pathRules(route).find((p) => p.type === 'PathPrefix' && p.value === '/')?.service;
      return app ? (routeSpec(route).hostnames ?? []).map((host) => [host, app]) : [];
    }),
  );
}
