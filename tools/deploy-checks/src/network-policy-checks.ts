import type { ServiceEntry } from '@lib/services';
import { podLabels, selects, workloads } from './pod';
import { find, type Resource } from './resource';

interface Peer {
  podSelector?: { matchLabels?: Record<string, string> };
  namespaceSelector?: { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] };
  ipBlock?: { cidr: string; except?: string[] };
}
interface Rule {
  from?: Peer[];
  to?: Peer[];
  ports?: { protocol?: string; port?: number | string }[];
}
interface PolicySpec {
  podSelector: { matchLabels?: Record<string, string> };
  policyTypes?: ('Ingress' | 'Egress')[];
  ingress?: Rule[];
  egress?: Rule[];
}

/** The namespaces whose pods may send requests to the apps: the Gateway API and Ingress controllers' proxies. */
export const ENTRY_NAMESPACES = ['envoy-gateway-system', 'ingress-nginx'];
/** Where Prometheus runs; it scrapes the apps' /metrics. */
export const MONITORING_NAMESPACE = 'monitoring';
/** The only app that opens connections outside the cluster (its feeds), over HTTPS. */
export const FEED_READER = 'news-api';

const policies = (resources: readonly Resource[]) => resources.filter((r) => r.kind === 'NetworkPolicy').map((r) => ({ name: r.metadata.name, spec: r.spec as PolicySpec }));
const types = (spec: PolicySpec) => spec.policyTypes ?? ['Ingress', ...(spec.egress ? ['Egress' as const] : [])];
const portAllowed = (rule: Rule, port: number) => !rule.ports?.length || rule.ports.some((p) => p.port === port && (p.protocol ?? 'TCP') === 'TCP');

/** A peer of the same namespace, by its pod labels (a peer with a namespaceSelector or ipBlock names other pods). */
const peerSelectsPod = (peer: Peer, labels: Record<string, string>) => !peer.namespaceSelector && !peer.ipBlock && peer.podSelector !== undefined && selects(peer.podSelector.matchLabels, labels);

/**
 * Whether pods labelled `from` may open a TCP connection to pods labelled `to` on `port`, in one
 * namespace, under Kubernetes NetworkPolicy rules: each side is open unless a policy of that
 * direction selects it, and then only as its rules allow.
 */
export function podCanReach(resources: readonly Resource[], from: Record<string, string>, to: Record<string, string>, port: number): boolean {
  const egress = policies(resources).filter((p) => types(p.spec).includes('Egress') && selects(p.spec.podSelector.matchLabels, from));
  const out = egress.length === 0 || egress.some((p) => (p.spec.egress ?? []).some((r) => portAllowed(r, port) && (!r.to?.length || r.to.some((peer) => peerSelectsPod(peer, to)))));
  return out && ingressAdmits(resources, from, to, port);
}

/** The receiving side alone: whether the policies selecting pods `to` admit a connection from pods `from` of the namespace. */
export function ingressAdmits(resources: readonly Resource[], from: Record<string, string>, to: Record<string, string>, port: number): boolean {
  const ingress = policies(resources).filter((p) => types(p.spec).includes('Ingress') && selects(p.spec.podSelector.matchLabels, to));
  return ingress.length === 0 || ingress.some((p) => (p.spec.ingress ?? []).some((r) => portAllowed(r, port) && (!r.from?.length || r.from.some((peer) => peerSelectsPod(peer, from)))));
}

const namespacesOf = (peer: Peer): string[] | undefined => {
  const selector = peer.namespaceSelector;
  if (!selector || peer.podSelector || peer.ipBlock) return undefined;
  const byLabel = selector.matchLabels?.['kubernetes.io/metadata.name'];
  const byExpression = selector.matchExpressions?.find((e) => e.key === 'kubernetes.io/metadata.name' && e.operator === 'In')?.values;
  const others = Object.keys(selector.matchLabels ?? {}).filter((k) => k !== 'kubernetes.io/metadata.name').length + (selector.matchExpressions?.length ?? 0) - (byExpression ? 1 : 0);
  const names = [...(byLabel ? [byLabel] : []), ...(byExpression ?? [])];
  return others === 0 && names.length > 0 ? names : undefined; // an empty selector: every namespace
};

/**
 * The namespace's traffic rules: default deny both ways, DNS for everyone; each app takes requests
 * on port 3000 only from the entry controllers' and the monitoring namespace, reaches its own
 * replica set and no other, and only news-api goes out of the cluster (HTTPS to public addresses);
 * members replicate among themselves and the set's Jobs reach it; a stray pod reaches nothing.
 */
export function networkPolicyBaselineProblems(resources: readonly Resource[], services: readonly ServiceEntry[]): string[] {
  const problems: string[] = [];
  const all = policies(resources);
  const denyAll = all.find((p) => Object.keys(p.spec.podSelector.matchLabels ?? {}).length === 0 && types(p.spec).includes('Ingress') && types(p.spec).includes('Egress') && !p.spec.ingress?.length && !p.spec.egress?.length);
  if (!denyAll) problems.push('no default-deny NetworkPolicy (every pod, Ingress and Egress, no rule)');
  const dns = all.some((p) => Object.keys(p.spec.podSelector.matchLabels ?? {}).length === 0 && (p.spec.egress ?? []).some((r) => r.ports?.some((port) => port.port === 53 && port.protocol === 'UDP') && r.to?.some((peer) => peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'kube-system')));
  if (!dns) problems.push('no NetworkPolicy lets pods query the cluster DNS (kube-system, UDP 53)');

  const stray = { 'app.kubernetes.io/name': 'stray' };
  for (const { name } of services) {
    const app = find(resources, 'Deployment', name);
    const server = find(resources, 'StatefulSet', `${name}-mongodb`);
    if (!app || !server) continue;
    const appLabels = podLabels(app);
    const serverLabels = podLabels(server);
    if (!podCanReach(resources, appLabels, serverLabels, 27017)) problems.push(`${name}: cannot reach ${name}-mongodb on 27017`);
    if (!podCanReach(resources, serverLabels, serverLabels, 27017)) problems.push(`${name}-mongodb: members cannot reach each other on 27017`);
    for (const job of workloads(resources).filter((w) => ['Job', 'CronJob'].includes(w.kind) && w.metadata.name.startsWith(`${name}-mongodb-`))) {
      if (!podCanReach(resources, podLabels(job), serverLabels, 27017)) problems.push(`${job.kind}/${job.metadata.name}: cannot reach ${name}-mongodb on 27017`);
    }
    for (const other of services.filter((s) => s.name !== name)) {
      const otherServer = find(resources, 'StatefulSet', `${other.name}-mongodb`);
      if (otherServer && (podCanReach(resources, appLabels, podLabels(otherServer), 27017) || ingressAdmits(resources, appLabels, podLabels(otherServer), 27017))) problems.push(`${name}: can reach ${other.name}-mongodb`);
    }
    if (ingressAdmits(resources, stray, appLabels, 3000)) problems.push(`${name}: any pod of the namespace can send it requests`);
    if (ingressAdmits(resources, stray, serverLabels, 27017)) problems.push(`${name}-mongodb: any pod of the namespace can reach it`);

    const appIngress = all.filter((p) => types(p.spec).includes('Ingress') && selects(p.spec.podSelector.matchLabels, appLabels)).flatMap((p) => p.spec.ingress ?? []);
    const sources = appIngress.flatMap((r) => (r.from?.length ? r.from : [{}]).map((peer) => ({ peer, ports: r.ports })));
    const wanted = [...ENTRY_NAMESPACES, MONITORING_NAMESPACE];
    const allowedNamespaces = sources.flatMap(({ peer }) => namespacesOf(peer) ?? []);
    for (const { peer, ports } of sources) {
      const namespaces = namespacesOf(peer);
      if (!namespaces || !namespaces.every((n) => wanted.includes(n))) problems.push(`${name}: takes requests from ${JSON.stringify(peer)}, not only from ${wanted.join(', ')}`);
      if (!ports?.length || ports.some((p) => p.port !== 3000)) problems.push(`${name}: takes connections on other ports than 3000`);
    }
    const missing = wanted.filter((n) => !allowedNamespaces.includes(n));
    if (missing.length) problems.push(`${name}: takes no requests from ${missing.join(', ')}`);

    const appEgress = all.filter((p) => types(p.spec).includes('Egress') && selects(p.spec.podSelector.matchLabels, appLabels)).flatMap((p) => p.spec.egress ?? []);
    const outside = appEgress.filter((r) => !r.to?.length || r.to.some((peer) => peer.ipBlock));
    if (name === FEED_READER) {
      const https = outside.filter((r) => r.ports?.length === 1 && r.ports[0].port === 443 && r.to?.every((peer) => peer.ipBlock?.cidr === '0.0.0.0/0' && ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'].every((c) => peer.ipBlock?.except?.includes(c))));
      if (https.length !== 1 || outside.length !== 1) problems.push(`${name}: does not go out on HTTPS (443) to public addresses only`);
    } else if (outside.length) problems.push(`${name}: may open connections outside the cluster`);
  }
  return problems;
}
