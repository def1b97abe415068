import { METRICS_PATH, type ServiceEntry } from '@lib/services';
import { parse } from 'yaml';
import { renderKustomization } from './kustomize';
import { containersOf } from './pod';
import { describe, find, type Resource } from './resource';
import { fromRoot } from './workspace';

/** The custom metric the HPAs scale on, served by prometheus-adapter from the apps' request counter. */
export const REQUEST_RATE_METRIC = 'http_requests_per_second';
export const REQUEST_COUNTER = 'http_requests_total';

/** k8s/monitoring: the ServiceMonitors and the prometheus-adapter rule (applied apart from the overlays). */
export const renderMonitoring = () => renderKustomization(fromRoot('k8s', 'monitoring'));

interface ServiceMonitorSpec {
  selector?: { matchLabels?: Record<string, string> };
  endpoints?: { port?: unknown; path?: unknown; interval?: unknown }[];
}

interface AdapterRule {
  seriesQuery?: string;
  name?: { matches?: string; as?: string };
  metricsQuery?: string;
}

const selects = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) =>
  selector !== undefined && Object.keys(selector).length > 0 && Object.entries(selector).every(([key, value]) => labels?.[key] === value);

/**
 * What scraping and request-rate autoscaling need of each app: its pods annotated for Prometheus
 * (scrape, the container's http port, METRICS_PATH), an HPA with the request-rate Pods metric, a
 * ServiceMonitor selecting its Service and scraping METRICS_PATH through a named port of it, and a
 * prometheus-adapter rule that makes the metric out of the apps' request counter.
 */
export function monitoringProblems(resources: readonly Resource[], monitoring: readonly Resource[], services: readonly ServiceEntry[]): string[] {
  const problems: string[] = [];
  for (const { name } of services) {
    const deployment = find(resources, 'Deployment', name);
    if (!deployment) continue; // appProblems reports it
    const annotations = (deployment.spec as { template: { metadata?: { annotations?: Record<string, string> } } }).template.metadata?.annotations ?? {};
    const httpPort = containersOf(deployment)
      .find((c) => c.name === name)
      ?.ports?.find((p) => p.name === 'http')?.containerPort;
    if (annotations['prometheus.io/scrape'] !== 'true') problems.push(`${name}: pods not annotated prometheus.io/scrape: "true"`);
    if (annotations['prometheus.io/port'] !== String(httpPort)) problems.push(`${name}: prometheus.io/port is ${annotations['prometheus.io/port']}, not the http port ${httpPort}`);
    if (annotations['prometheus.io/path'] !== METRICS_PATH) problems.push(`${name}: prometheus.io/path is ${annotations['prometheus.io/path']}, not ${METRICS_PATH}`);

    const hpa = find(resources, 'HorizontalPodAutoscaler', name);
    const metrics = (hpa?.spec as { metrics?: { type: string; pods?: { metric?: { name?: string }; target?: { type?: string } } }[] } | undefined)?.metrics ?? [];
    const rate = metrics.find((m) => m.type === 'Pods' && m.pods?.metric?.name === REQUEST_RATE_METRIC);
    if (!rate) problems.push(`${name}: the HPA does not scale on the Pods metric ${REQUEST_RATE_METRIC}`);
    else if (rate.pods?.target?.type !== 'AverageValue') problems.push(`${name}: the HPA's ${REQUEST_RATE_METRIC} target is not an AverageValue per pod`);

    const service = find(resources, 'Service', name);
    const portNames = new Set(((service?.spec as { ports?: { name?: string }[] } | undefined)?.ports ?? []).map((p) => p.name));
    const monitors = monitoring.filter((r) => r.kind === 'ServiceMonitor' && selects((r.spec as ServiceMonitorSpec).selector?.matchLabels, service?.metadata.labels));
    if (monitors.length !== 1) problems.push(`${name}: ${monitors.length} ServiceMonitors select its Service, expected 1`);
    for (const monitor of monitors) {
      const endpoints = (monitor.spec as ServiceMonitorSpec).endpoints ?? [];
      if (!endpoints.some((e) => e.path === METRICS_PATH && typeof e.port === 'string' && portNames.has(e.port))) {
        problems.push(`${describe(monitor)}: no endpoint scraping ${METRICS_PATH} through a named port of Service/${name}`);
      }
    }
  }

  const adapter = monitoring.find((r) => r.kind === 'ConfigMap' && r.metadata.name === 'prometheus-adapter-rules');
  const config = (adapter?.data as Record<string, string> | undefined)?.['config.yaml'];
  const rules = ((config ? parse(config) : undefined) as { rules?: AdapterRule[] } | undefined)?.rules ?? [];
  const rule = rules.find((r) => r.name?.as === REQUEST_RATE_METRIC);
  if (!rule) problems.push(`prometheus-adapter-rules: no rule serving ${REQUEST_RATE_METRIC}`);
  else {
    if (!rule.seriesQuery?.startsWith(`${REQUEST_COUNTER}{`)) problems.push(`prometheus-adapter-rules: ${REQUEST_RATE_METRIC} is not made of ${REQUEST_COUNTER}`);
    if (!/\brate\(<<\.Series>>/.test(rule.metricsQuery ?? '')) problems.push(`prometheus-adapter-rules: ${REQUEST_RATE_METRIC} is not a rate`);
  }
  return problems;
}

/**
 * The Prometheus Operator's ServiceMonitor is a custom resource, not in kubernetes-models: the
 * fields these manifests use are checked here instead (a selector, endpoints with a port name,
 * a path and a duration).
 */
export function serviceMonitorSchemaProblems(resource: Resource): string[] {
  const spec = resource.spec as ServiceMonitorSpec | undefined;
  const at = describe(resource);
  const problems: string[] = [];
  if (typeof spec?.selector?.matchLabels !== 'object') problems.push(`${at}: spec.selector.matchLabels must be an object`);
  if (!Array.isArray(spec?.endpoints) || spec.endpoints.length === 0) problems.push(`${at}: spec.endpoints must be a non-empty list`);
  spec?.endpoints?.forEach((endpoint, i) => {
    if (typeof endpoint.port !== 'string') problems.push(`${at}: spec.endpoints/${i}/port must be a port name`);
    if (typeof endpoint.path !== 'string' || !endpoint.path.startsWith('/')) problems.push(`${at}: spec.endpoints/${i}/path must be a path`);
    if (endpoint.interval !== undefined && !/^(\d+(ms|s|m|h))+$/.test(String(endpoint.interval))) problems.push(`${at}: spec.endpoints/${i}/interval must be a duration`);
  });
  return problems;
}
