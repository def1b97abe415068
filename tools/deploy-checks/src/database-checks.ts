import type { ServiceEntry } from '@lib/services';
import ConnectionString from 'mongodb-connection-string-url';
import { imageName, imageTag } from './kustomize';
import { containersOf, podLabels, selects, workloads, type EnvVar } from './pod';
import { find, type Resource } from './resource';

const secretRef = (variable: EnvVar | undefined) => variable?.valueFrom?.secretKeyRef;

/** The MongoDB release line the servers, compose and the backup tools run: 8.0 (supported until 2029), pinned to a patch. */
export const MONGO_VERSION = /^8\.0\.\d+$/;

/** `<server>-0.<server>:27017` … : the members' names in the replica set's configuration and the apps' URLs. */
export const memberHosts = (server: string, replicas: number) => Array.from({ length: replicas }, (_, i) => `${server}-${i}.${server}:27017`);

export const statefulSetReplicas = (statefulSet: Resource) => (statefulSet.spec as { replicas?: number }).replicas ?? 1;

/**
 * Each app reaches its own MongoDB replica set (a StatefulSet with a volume claim), by the names of
 * all its members, its own database there, as its own user whose password both sides take from the
 * app's Secret.
 */
export function databaseProblems(resources: readonly Resource[], services: readonly ServiceEntry[]): string[] {
  const problems: string[] = [];
  for (const { name, envPrefix, database } of services) {
    const container = containersOf(find(resources, 'Deployment', name) ?? ({ kind: '' } as Resource)).find((c) => c.name === name);
    const env = container?.env ?? [];
    const urlIndex = env.findIndex((v) => v.name === `${envPrefix}_MONGO_URL`);
    const raw = env[urlIndex]?.value;
    if (typeof raw !== 'string') {
      problems.push(`${name}: no ${envPrefix}_MONGO_URL value`);
      continue;
    }
    // Kubernetes expands $(VAR) only from variables defined earlier in the list.
    for (const [, variable] of raw.matchAll(/\$\(([A-Z0-9_]+)\)/g)) {
      if (!env.slice(0, urlIndex).some((v) => v.name === variable)) problems.push(`${name}: ${envPrefix}_MONGO_URL uses $(${variable}) before it is defined`);
    }
    const password = secretRef(env.find((v) => v.name === 'DB_PASSWORD'));
    if (password?.name !== name || password.key !== 'DB_PASSWORD') problems.push(`${name}: DB_PASSWORD does not come from Secret ${name} key DB_PASSWORD`);

    let url: ConnectionString;
    try {
      url = new ConnectionString(raw.replace(/\$\(([A-Z0-9_]+)\)/g, 'placeholder'));
    } catch (err) {
      problems.push(`${name}: ${envPrefix}_MONGO_URL is not a MongoDB URL: ${(err as Error).message}`);
      continue;
    }
    const server = `${name}-mongodb`;
    const set = find(resources, 'StatefulSet', server);
    const members = memberHosts(server, set ? statefulSetReplicas(set) : 1);
    if (url.hosts.join(',') !== members.join(',')) problems.push(`${name}: database URL points at ${url.hosts.join(',')}, not its own replica set's members ${members.join(',')}`);
    if (url.pathname !== `/${database}`) problems.push(`${name}: database URL names database "${url.pathname.slice(1)}", not "${database}"`);
    if (url.username !== database || url.searchParams.get('authSource') !== database) problems.push(`${name}: database URL does not log in as user ${database} of database ${database}`);

    const statefulSet = find(resources, 'StatefulSet', server);
    const service = find(resources, 'Service', server);
    if (!statefulSet || !service) {
      problems.push(`${name}: no StatefulSet and Service ${server}`);
      continue;
    }
    if (!selects((service.spec as { selector?: Record<string, string> }).selector, podLabels(statefulSet))) problems.push(`${name}: Service ${server} does not select StatefulSet ${server}`);
    const claims = (statefulSet.spec as { volumeClaimTemplates?: { metadata: { name: string } }[] }).volumeClaimTemplates ?? [];
    const [mongo] = containersOf(statefulSet);
    if (!mongo) {
      problems.push(`${name}: ${server} has no container`);
      continue;
    }
    if (imageName(mongo.image) !== 'mongo' || !MONGO_VERSION.test(imageTag(mongo.image) ?? '')) problems.push(`${name}: ${server} runs ${mongo.image}, not a pinned mongo 8`);
    const dataMount = mongo.volumeMounts?.find((m) => m.mountPath === '/data/db');
    if (!dataMount || !claims.some((c) => c.metadata.name === dataMount.name)) problems.push(`${name}: ${server} keeps /data/db outside a persistent volume claim`);
    const mongoEnv = mongo.env ?? [];
    if (mongoEnv.find((v) => v.name === 'APP_DATABASES')?.value !== database) problems.push(`${name}: ${server} does not create the database user for "${database}" alone`);
    const userPassword = secretRef(mongoEnv.find((v) => v.name === `${database.toUpperCase()}_DB_PASSWORD`));
    if (userPassword?.name !== name || userPassword.key !== 'DB_PASSWORD') problems.push(`${name}: ${server} takes the user's password from elsewhere than Secret ${name} key DB_PASSWORD`);
  }
  return problems;
}

interface PolicyPeer {
  podSelector?: { matchLabels?: Record<string, string> };
  namespaceSelector?: unknown;
  ipBlock?: unknown;
}

/** A NetworkPolicy lets each app, the set's own members and its own Jobs (bootstrap, backup, restore), and nothing else, reach its MongoDB replica set. */
export function networkPolicyProblems(resources: readonly Resource[], services: readonly ServiceEntry[]): string[] {
  const problems: string[] = [];
  const policies = resources.filter((r) => r.kind === 'NetworkPolicy');
  for (const { name } of services) {
    const server = find(resources, 'StatefulSet', `${name}-mongodb`);
    const app = find(resources, 'Deployment', name);
    if (!server || !app) continue; // reported by databaseProblems and appProblems
    const guarding = policies.filter((p) => {
      const spec = p.spec as { podSelector: { matchLabels?: Record<string, string> }; policyTypes?: string[] };
      return selects(spec.podSelector.matchLabels, podLabels(server)) && (spec.policyTypes ?? ['Ingress']).includes('Ingress');
    });
    if (guarding.length === 0) problems.push(`${name}: no NetworkPolicy guards ${name}-mongodb`);
    for (const policy of guarding) {
      for (const rule of (policy.spec as { ingress?: { from?: PolicyPeer[] }[] }).ingress ?? []) {
        if (!rule.from?.length) {
          problems.push(`NetworkPolicy/${policy.metadata.name}: lets every pod reach ${name}-mongodb`);
          continue;
        }
        for (const peer of rule.from) {
          const reached = workloads(resources).filter((w) => selects(peer.podSelector?.matchLabels, podLabels(w)));
          const allowed = (w: Resource) => w === app || w === server || (['Job', 'CronJob'].includes(w.kind) && w.metadata.name.startsWith(`${name}-mongodb-`));
          if (peer.namespaceSelector || peer.ipBlock || !peer.podSelector || reached.length === 0 || !reached.every(allowed)) {
            problems.push(`NetworkPolicy/${policy.metadata.name}: lets ${reached.filter((w) => !allowed(w)).map((w) => w.metadata.name).join(', ') || 'other clients'} reach ${name}-mongodb`);
          }
        }
      }
    }
  }
  return problems;
}
