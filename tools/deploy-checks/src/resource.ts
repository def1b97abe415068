/** A Kubernetes object as read from YAML; only the fields the checks look at are typed. */
export interface Resource {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

export function isResource(value: unknown): value is Resource {
  const v = value as Resource | null;
  return typeof v === 'object' && v !== null && typeof v.apiVersion === 'string' && typeof v.kind === 'string' && typeof v.metadata?.name === 'string';
}

export const describe = (r: Resource) => `${r.kind}/${r.metadata.name}`;

export const find = (resources: readonly Resource[], kind: string, name: string) =>
  resources.find((r) => r.kind === kind && r.metadata.name === name);
