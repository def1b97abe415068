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
