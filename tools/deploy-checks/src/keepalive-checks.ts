import { PROXY_KEEPALIVE_MS, SERVER_TIMEOUTS } from '@lib/http';
import { describe, type Resource } from './resource';

const seconds = (value: string | undefined) => (value !== undefined && /^\d+$/.test(value) ? Number(value) * 1000 : undefined);

/**
 * The ingress must close an idle connection to an app before the app does (else a request can be
 * sent on a connection Node is closing: a 502): the controller's `upstream-keepalive-timeout` is
 * below the apps' keep-alive time and is the value the server's test assumes (PROXY_KEEPALIVE_MS);
 * the Ingress's `proxy-send-timeout` ends a stalled send before the apps' header and request limits.
 */
export function keepAliveProblems(controller: readonly Resource[], ingresses: readonly Resource[]): string[] {
  const problems: string[] = [];
  const config = controller.find((r) => r.kind === 'ConfigMap' && r.metadata.name === 'ingress-nginx-controller');
  const upstream = seconds((config?.data as Record<string, string> | undefined)?.['upstream-keepalive-timeout']);
  if (upstream === undefined) problems.push('ConfigMap/ingress-nginx-controller: upstream-keepalive-timeout is not a number of seconds');
  else {
    if (upstream >= SERVER_TIMEOUTS.keepAliveMs) problems.push(`ConfigMap/ingress-nginx-controller: upstream-keepalive-timeout ${upstream / 1000} s is not below the apps' keep-alive ${SERVER_TIMEOUTS.keepAliveMs / 1000} s`);
    if (upstream !== PROXY_KEEPALIVE_MS) problems.push(`ConfigMap/ingress-nginx-controller: upstream-keepalive-timeout ${upstream / 1000} s is not PROXY_KEEPALIVE_MS (${PROXY_KEEPALIVE_MS / 1000} s) of libs/http`);
  }
  for (const ingress of ingresses.filter((r) => r.kind === 'Ingress')) {
    const send = seconds(ingress.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-send-timeout']);
    if (send === undefined) problems.push(`${describe(ingress)}: nginx.ingress.kubernetes.io/proxy-send-timeout is not a number of seconds`);
    else if (send >= Math.min(SERVER_TIMEOUTS.headersMs, SERVER_TIMEOUTS.requestMs)) {
      problems.push(`${describe(ingress)}: proxy-send-timeout ${send / 1000} s is not below the apps' header and request limits`);
    }
  }
  return problems;
}

/** A Gateway API / Envoy duration (`60s`, `1m`, `500ms`) in milliseconds. */
export function durationMs(value: unknown): number | undefined {
  const match = typeof value === 'string' ? /^(\d+)(ms|s|m|h)$/.exec(value) : null;
  if (!match) return undefined;
  return Number(match[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] as 'ms' | 's' | 'm' | 'h'];
}

const targets = (policy: Resource, gateway: Resource) =>
  ((policy.spec as { targetRefs?: { kind: string; name: string }[] }).targetRefs ?? []).some((t) => t.kind === 'Gateway' && t.name === gateway.metadata.name);

/**
 * The same rule for the Gateway API entry (Envoy Gateway): a BackendTrafficPolicy on each Gateway
 * closes idle connections to the apps at PROXY_KEEPALIVE_MS, below the apps' keep-alive (Envoy's
 * default is 1 h); a ClientTrafficPolicy states the path normalisation the probe-path rules are
 * checked against (escaped slashes unescaped, slashes merged).
 */
export function gatewayKeepAliveProblems(resources: readonly Resource[]): string[] {
  const problems: string[] = [];
  for (const gateway of resources.filter((r) => r.kind === 'Gateway')) {
    const backend = resources.filter((r) => r.kind === 'BackendTrafficPolicy' && targets(r, gateway));
    const idle = backend.map((p) => durationMs((p.spec as { timeout?: { http?: { connectionIdleTimeout?: string } } }).timeout?.http?.connectionIdleTimeout));
    if (idle.length !== 1 || idle[0] === undefined) problems.push(`${describe(gateway)}: no BackendTrafficPolicy sets timeout.http.connectionIdleTimeout (Envoy keeps idle connections 1 h)`);
    else if (idle[0] >= SERVER_TIMEOUTS.keepAliveMs || idle[0] !== PROXY_KEEPALIVE_MS) {
      problems.push(`${describe(gateway)}: connectionIdleTimeout ${idle[0] / 1000} s is not PROXY_KEEPALIVE_MS (${PROXY_KEEPALIVE_MS / 1000} s), below the apps' keep-alive ${SERVER_TIMEOUTS.keepAliveMs / 1000} s`);
    }
    const client = resources.filter((r) => r.kind === 'ClientTrafficPolicy' && targets(r, gateway));
    const path = (client[0]?.spec as { path?: { escapedSlashesAction?: string; disableMergeSlashes?: boolean } } | undefined)?.path;
    if (client.length !== 1 || path?.escapedSlashesAction !== 'UnescapeAndRedirect' || path.disableMergeSlashes !== false) {
      problems.push(`${describe(gateway)}: no ClientTrafficPolicy with path.escapedSlashesAction UnescapeAndRedirect and disableMergeSlashes false`);
    }
  }
  return problems;
}
