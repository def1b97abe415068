import type { ServiceEntry } from '@lib/services';
import ConnectionString from 'mongodb-connection-string-url';
import { imageName, imageTag } from './kustomize';
import { containersOf, podLabels, selects, workloads, type EnvVar } from './pod';
import { find, type Resource } from './resource';

const secretRef = (variable: EnvVar | undefined) => variable?.valueFrom?.secretKeyRef;

/**
 * Each app reaches its own MongoDB server (a StatefulSet with a volume claim), its own database
 * there, as its own user whose password both sides take from the app's Secret.
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
    if (url.hosts.join(',') !== `${server}:27017`) problems.push(`${name}: database URL points at ${url.hosts.join(',')}, not its own server ${server}:27017`);
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
    if (imageName(mongo.image) !== 'mongo' || !/^7\.\d+\.\d+$/.test(imageTag(mongo.image) ?? '')) problems.push(`${name}: ${server} runs ${mongo.image}, not a pinned mongo 7`);
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

/** A NetworkPolicy lets each app, and nothing else, reach its own MongoDB server. */
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
          const reached = workloads(resources).filter((w) => w.kind === 'Deployment' && selects(peer.podSelector?.matchLabels, podLabels(w)));
          if (peer.namespaceSelector || peer.ipBlock || !peer.podSelector || reached.length !== 1 || reached[0] !== app) {
            problems.push(`NetworkPolicy/${policy.metadata.name}: lets ${reached.map((w) => w.metadata.name).join(', ') || 'other clients'} reach ${name}-mongodb`);
          }
        }
      }
    }
  }
  return problems;
}
