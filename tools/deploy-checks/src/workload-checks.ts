import { parseTrustedProxies, type ServiceEntry } from '@lib/services';
import { POD_KINDS, imageTag, podSpec } from './kustomize';
import { containersOf, initContainersOf, literalEnv, podLabels, selects, workloads, type PodContainer } from './pod';
import { describe, find, type Resource } from './resource';

/** Every container: pinned image, probes (in pods that keep running), requests and limits, string env values, no privilege. */
export function containerProblems(resources: readonly Resource[]): string[] {
  const problems: string[] = [];
  for (const workload of workloads(resources)) {
    const spec = podSpec(workload) as { securityContext?: { runAsNonRoot?: boolean } };
    const probed = POD_KINDS[workload.kind] === 'long-running';
    for (const c of [...containersOf(workload), ...initContainersOf(workload)]) {
      const init = !containersOf(workload).includes(c);
      const at = `${describe(workload)} ${init ? 'init container' : 'container'} ${c.name}`;
      const tag = imageTag(c.image);
      if (!c.image.includes('@') && (!tag || tag === 'latest')) problems.push(`${at}: image ${c.image} is not pinned to a version`);
      if (probed && !init) {
        if (!c.livenessProbe) problems.push(`${at}: no liveness probe`);
        if (!c.readinessProbe) problems.push(`${at}: no readiness probe`);
        if (!c.startupProbe) problems.push(`${at}: no startup probe`);
      }
      for (const kind of ['requests', 'limits'] as const) {
        for (const resource of ['cpu', 'memory']) if (!c.resources?.[kind]?.[resource]) problems.push(`${at}: no ${resource} ${kind}`);
      }
      for (const variable of c.env ?? []) {
        if ('value' in variable && typeof variable.value !== 'string') problems.push(`${at}: env ${variable.name} is ${JSON.stringify(variable.value)}, not a string`);
      }
      if (c.securityContext?.allowPrivilegeEscalation !== false) problems.push(`${at}: allowPrivilegeEscalation is not false`);
      if (c.securityContext?.readOnlyRootFilesystem !== true) problems.push(`${at}: root filesystem is not read-only`);
      if (c.securityContext?.runAsNonRoot !== true && spec.securityContext?.runAsNonRoot !== true) problems.push(`${at}: may run as root`);
    }
  }
  for (const configMap of resources.filter((r) => r.kind === 'ConfigMap')) {
    for (const [key, value] of Object.entries((configMap.data as Record<string, unknown>) ?? {})) {
      if (typeof value !== 'string') problems.push(`${describe(configMap)}: ${key} is ${JSON.stringify(value)}, not a string`);
    }
  }
  return problems;
}

/**
 * The Secret a cert-manager Certificate writes: tls.crt, tls.key, ca.crt, and tls-combined.pem with
 * the CombinedPEM output format.
 */
function certificateSecret(certificate: Resource): Resource {
  const spec = certificate.spec as { secretName: string; additionalOutputFormats?: { type: string }[] };
  const keys = ['tls.crt', 'tls.key', 'ca.crt', ...(spec.additionalOutputFormats?.some((f) => f.type === 'CombinedPEM') ? ['tls-combined.pem'] : [])];
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name: spec.secretName }, data: Object.fromEntries(keys.map((k) => [k, ''])) };
}

/** Every ConfigMap, Secret (or Certificate's Secret), key and PersistentVolumeClaim a pod refers to exists. */
export function referenceProblems(resources: readonly Resource[]): string[] {
  const problems: string[] = [];
  const all = [...resources, ...resources.filter((r) => r.kind === 'Certificate').map(certificateSecret)];
  const check = (at: string, kind: 'ConfigMap' | 'Secret' | 'PersistentVolumeClaim', name: string, key?: string) => {
    const target = find(all, kind, name);
    if (!target) return problems.push(`${at}: ${kind} ${name} does not exist`);
    const data = { ...(target.data as object), ...(target.stringData as object) };
    if (key !== undefined && !(key in data)) problems.push(`${at}: ${kind} ${name} has no key ${key}`);
  };
  for (const workload of workloads(resources)) {
    type Items = { items?: { key: string }[] };
    const spec = podSpec(workload) as { volumes?: { configMap?: { name: string } & Items; secret?: { secretName: string } & Items; persistentVolumeClaim?: { claimName: string } }[] };
    for (const volume of spec.volumes ?? []) {
      if (volume.configMap) for (const key of volume.configMap.items?.map((i) => i.key) ?? [undefined]) check(describe(workload), 'ConfigMap', volume.configMap.name, key);
      if (volume.secret) for (const key of volume.secret.items?.map((i) => i.key) ?? [undefined]) check(describe(workload), 'Secret', volume.secret.secretName, key);
      if (volume.persistentVolumeClaim) check(describe(workload), 'PersistentVolumeClaim', volume.persistentVolumeClaim.claimName);
    }
    for (const c of containersOf(workload)) {
      const at = `${describe(workload)} container ${c.name}`;
      for (const source of c.envFrom ?? []) {
        if (source.configMapRef) check(at, 'ConfigMap', source.configMapRef.name);
        if (source.secretRef) check(at, 'Secret', source.secretRef.name);
      }
      for (const variable of c.env ?? []) {
        const { secretKeyRef, configMapKeyRef } = variable.valueFrom ?? {};
        if (secretKeyRef) check(`${at} env ${variable.name}`, 'Secret', secretKeyRef.name, secretKeyRef.key);
        if (configMapKeyRef) check(`${at} env ${variable.name}`, 'ConfigMap', configMapKeyRef.name, configMapKeyRef.key);
      }
    }
  }
  return problems;
}

function preStopSeconds(c: PodContainer): number | undefined {
  const preStop = c.lifecycle?.preStop;
  if (preStop?.sleep) return preStop.sleep.seconds;
  const [command, seconds] = preStop?.exec?.command ?? [];
  return command === 'sleep' && /^\d+$/.test(seconds ?? '') ? Number(seconds) : undefined;
}

/** What the issue asks of each app's Deployment, Service, HPA and PDB, and that its settings come from a ConfigMap and a Secret. */
export function appProblems(resources: readonly Resource[], services: readonly ServiceEntry[]): string[] {
  const problems: string[] = [];
  for (const { name } of services) {
    const deployment = find(resources, 'Deployment', name);
    if (!deployment) {
      problems.push(`${name}: no Deployment`);
      continue;
    }
    const spec = deployment.spec as { strategy?: { type?: string; rollingUpdate?: { maxUnavailable?: unknown } }; template: { spec: { terminationGracePeriodSeconds?: number } } };
    if (spec.strategy?.type !== 'RollingUpdate' || spec.strategy.rollingUpdate?.maxUnavailable !== 0) problems.push(`${name}: not a rolling update with maxUnavailable 0`);
    const container = containersOf(deployment).find((c) => c.name === name);
    if (!container) {
      problems.push(`${name}: no container named ${name}`);
      continue;
    }
    if (container.livenessProbe?.httpGet?.path !== '/healthz') problems.push(`${name}: liveness probe is not GET /healthz`);
    if (container.startupProbe?.httpGet?.path !== '/healthz') problems.push(`${name}: startup probe is not GET /healthz`);
    if (container.readinessProbe?.httpGet?.path !== '/readyz') problems.push(`${name}: readiness probe is not GET /readyz`);

    const env = literalEnv(resources, container);
    const preStop = preStopSeconds(container);
    const drainSeconds = (Number(env.SHUTDOWN_DELAY_MS ?? 0) + Number(env.SHUTDOWN_TIMEOUT_MS ?? 10_000)) / 1000;
    const grace = spec.template.spec.terminationGracePeriodSeconds ?? 30;
    if (preStop === undefined) problems.push(`${name}: no preStop sleep`);
    else if (grace <= preStop + drainSeconds) problems.push(`${name}: terminationGracePeriodSeconds ${grace} is not longer than preStop ${preStop} s + drain ${drainSeconds} s`);
    if (env.PORT !== undefined && env.PORT !== '3000') problems.push(`${name}: PORT is ${env.PORT}, not 3000`);
    problems.push(...networkProblems(name, env));

    if (!container.envFrom?.some((source) => source.configMapRef)) problems.push(`${name}: configuration does not come from a ConfigMap`);
    if (!container.env?.some((variable) => variable.valueFrom?.secretKeyRef?.name === name)) problems.push(`${name}: secrets do not come from the Secret ${name}`);
    const plain = (container.env ?? []).filter((v) => /SECRET|PASSWORD|_KEY$/.test(v.name) && !v.valueFrom?.secretKeyRef).map((v) => v.name);
    if (plain.length) problems.push(`${name}: ${plain.join(', ')} not taken from a Secret`);

    if (!find(resources, 'Service', name)) problems.push(`${name}: no Service`);
    const hpa = find(resources, 'HorizontalPodAutoscaler', name);
    const target = (hpa?.spec as { scaleTargetRef?: { kind: string; name: string } } | undefined)?.scaleTargetRef;
    if (target?.kind !== 'Deployment' || target.name !== name) problems.push(`${name}: no HorizontalPodAutoscaler scaling the Deployment`);
    const pdbs = resources.filter((r) => r.kind === 'PodDisruptionBudget' && selects((r.spec as { selector?: { matchLabels?: Record<string, string> } }).selector?.matchLabels, podLabels(deployment)));
    if (pdbs.length !== 1) problems.push(`${name}: ${pdbs.length} PodDisruptionBudgets select its pods, expected 1`);
  }
  return problems;
}

/** Every interface, stated in the manifest (the apps default to loopback, where neither probes nor the Service reach them). */
const ALL_INTERFACES = ['0.0.0.0', '::'];

/** BIND_ADDRESS on every interface, and TRUST_PROXY set to something the app accepts. */
function networkProblems(name: string, env: Record<string, string>): string[] {
  const problems: string[] = [];
  if (!ALL_INTERFACES.includes(env.BIND_ADDRESS ?? '')) {
    problems.push(`${name}: BIND_ADDRESS is ${env.BIND_ADDRESS === undefined ? 'not set' : env.BIND_ADDRESS}, not 0.0.0.0: the app would listen where probes and the Service cannot reach it`);
  }
  if (!env.TRUST_PROXY) {
    problems.push(`${name}: TRUST_PROXY is not set: every client would be counted as the entry proxy's address (one sign-in limit for everyone)`);
  } else {
    try {
      parseTrustedProxies(env.TRUST_PROXY);
    } catch (err) {
      problems.push(`${name}: TRUST_PROXY ${(err as Error).message}`);
    }
  }
  return problems;
}
