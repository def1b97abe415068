import { serviceMonitorSchemaProblems } from './monitoring-checks';
import { describe, type Resource } from './resource';

interface ModelClass {
  new (data: unknown): { validate(): void };
}

/**
 * Validates one object against the Kubernetes OpenAPI schema of its apiVersion and kind, with the
 * validators that ship compiled inside the `kubernetes-models` package (nothing is downloaded).
 * Returns the problems, empty when valid. The one custom resource used (ServiceMonitor, in
 * k8s/monitoring) is checked by hand.
 */
export function schemaProblems(resource: Resource): string[] {
  if (resource.apiVersion === 'monitoring.coreos.com/v1' && resource.kind === 'ServiceMonitor') return serviceMonitorSchemaProblems(resource);
  let group: Record<string, ModelClass | undefined>;
  try {
    group = require(`kubernetes-models/${resource.apiVersion}`) as Record<string, ModelClass | undefined>;
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
