import { serviceMonitorSchemaProblems } from './monitoring-checks';
import { describe, type Resource } from './resource';

interface ModelClass {
  new (data: unknown): { validate(): void };
}

/** Custom resources validated with the schemas another package ships (same validators). */
const CUSTOM_RESOURCE_PACKAGES: [prefix: string, pkg: string][] = [
  ['gateway.networking.k8s.io/', '@kubernetes-models/gateway-api'],
  ['cert-manager.io/', '@kubernetes-models/cert-manager'],
];

/**
 * Custom resources no npm package ships a schema for (Envoy Gateway's policies): not validated as a
 * whole; the fields the apps rely on are checked by keepalive-checks.ts.
 */
export const WITHOUT_SCHEMA: ReadonlySet<string> = new Set(['gateway.envoyproxy.io/v1alpha1']);

/**
 * Validates one object against the Kubernetes OpenAPI schema of its apiVersion and kind, with the
 * validators that ship compiled inside the `kubernetes-models` package (nothing is downloaded).
 * Returns the problems, empty when valid. The one custom resource used (ServiceMonitor, in
 * k8s/monitoring) is checked by hand.
 */
export function schemaProblems(resource: Resource): string[] {
  if (resource.apiVersion === 'monitoring.coreos.com/v1' && resource.kind === 'ServiceMonitor') return serviceMonitorSchemaProblems(resource);
  if (WITHOUT_SCHEMA.has(resource.apiVersion)) return [];
  const pkg = CUSTOM_RESOURCE_PACKAGES.find(([prefix]) => resource.apiVersion.startsWith(prefix))?.[1] ?? 'kubernetes-models';
  let group: Record<string, ModelClass | undefined>;
  try {
    group = require(`${pkg}/${resource.apiVersion}`) as Record<string, ModelClass | undefined>;
  } catch {
    return [`${describe(resource)}: unknown apiVersion ${resource.apiVersion}`];
  }
  const Model = group[resource.kind];
  if (typeof Model !== 'function') return [`${describe(resource)}: ${resource.apiVersion} has no kind ${resource.kind}`];
  try {
    new Model(resource).validate();
    return [];
  } catch (err) {
    return [`${describe(resource)}: ${(err as Error).message}`];
  }
}
