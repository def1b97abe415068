import { podSpec, podTemplate, type Container } from './kustomize';
import { find, type Resource } from './resource';

export interface EnvVar {
  name: string;
  value?: unknown;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: { name: string; key: string } };
}

export interface Probe {
  httpGet?: { path?: string; port: string | number };
  tcpSocket?: { port: string | number };
  exec?: { command: string[] };
}

export interface PodContainer extends Container {
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports?: { name?: string; containerPort: number }[];
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] }; sleep?: { seconds: number } } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  volumeMounts?: { name: string; mountPath: string }[];
  securityContext?: { allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean; runAsNonRoot?: boolean };
}

export const workloads = (resources: readonly Resource[]) => resources.filter((r) => podSpec(r) !== undefined);

export const containersOf = (r: Resource) => (podSpec(r)?.containers ?? []) as PodContainer[];

export const podLabels = (r: Resource): Record<string, string> => podTemplate(r)?.metadata?.labels ?? {};

export const initContainersOf = (r: Resource) => (podSpec(r)?.initContainers ?? []) as PodContainer[];

/** True when every pair of `selector` is among `labels`. An empty selector selects everything. */
export const selects = (selector: Record<string, string> | undefined, labels: Record<string, string>) =>
  Object.entries(selector ?? {}).every(([key, value]) => labels[key] === value);

/** The literal environment a container starts with: its ConfigMaps' data, then its own `value`s. */
export function literalEnv(resources: readonly Resource[], container: PodContainer): Record<string, string> {
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    const configMap = source.configMapRef && find(resources, 'ConfigMap', source.configMapRef.name);
    Object.assign(env, (configMap?.data as Record<string, string> | undefined) ?? {});
  }
  for (const variable of container.env ?? []) if (typeof variable.value === 'string') env[variable.name] = variable.value;
  return env;
}
