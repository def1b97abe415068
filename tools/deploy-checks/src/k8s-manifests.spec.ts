import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { PROBE_PATH_RULE, PROBE_PATH_SPELLINGS, ROUTED_PATHS, SERVICES, isProbeTarget, serviceForHost } from '@lib/services';
import { databaseProblems, networkPolicyProblems } from './database-checks';
import { networkPolicyBaselineProblems } from './network-policy-checks';
import { replicaSetProblems, restoreJobProblems } from './replica-set-checks';
import { schemaProblems } from './k8s-schema';
import { gatewayKeepAliveProblems, keepAliveProblems } from './keepalive-checks';
import { gatewayApiProblems, gatewayBackend, gatewayHostServices, httpRoutes, pathRules } from './gateway-api-checks';
import { OVERLAYS, readRestoreJobs, renderBase, renderIngressAlternative, renderIngressController, renderOverlay } from './manifests';
import { nginxBackend } from './nginx-locations';
import { readDockerfile, stageEnv } from './dockerfile';
import { memoryProblems } from './memory-checks';
import { monitoringProblems, renderMonitoring } from './monitoring-checks';
import { isResource } from './resource';
import { SINK, ingressProblems, ingressRoutes, serviceProblems, usesRegex } from './routing-checks';
import { appProblems, containerProblems, referenceProblems } from './workload-checks';
import { fromRoot, readYamlDocuments } from './workspace';

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const file = path.join(dir, entry);
    if (statSync(file).isDirectory()) return yamlFiles(file);
    return /\.ya?ml$/.test(entry) ? [file] : [];
  });
}

describe('k8s/ files', () => {
  const files = yamlFiles(fromRoot('k8s'));

  it('all parse, and every Kubernetes object in them validates against the Kubernetes schemas', () => {
    expect(files.length).toBeGreaterThan(10);
    const problems: string[] = [];
    for (const file of files) {
      for (const document of readYamlDocuments(file)) {
        const kind = (document as { kind?: string }).kind;
        if (kind === 'Kustomization') continue;
        if (!isResource(document)) problems.push(`${file}: not a Kubernetes object`);
        else problems.push(...schemaProblems(document));
      }
    }
    expect(problems).toEqual([]);
  });

  it('have a folder per service of the service table, each in the base', () => {
    const base = readYamlDocuments(fromRoot('k8s/base/kustomization.yaml'))[0] as { resources: string[] };
    for (const { name } of SERVICES) expect(base.resources).toContain(name);
  });
});

const renderings = [['base', renderBase] as const, ['base with the Ingress alternative', renderIngressAlternative] as const, ...OVERLAYS.map((overlay) => [`overlay ${overlay}`, () => renderOverlay(overlay)] as const)];

describe.each(renderings)('k8s %s, rendered', (label, render) => {
  const resources = render();

  it('validates against the Kubernetes schemas', () => {
    expect(resources.flatMap(schemaProblems)).toEqual([]);
  });

  it('pins every image, and gives every container probes, requests and limits, string env values and no privileges', () => {
    expect(containerProblems(resources)).toEqual([]);
  });

  it('runs each app with probes, a safe rolling update, a grace period longer than the drain, a Service, HPA and PDB', () => {
    expect(appProblems(resources, SERVICES)).toEqual([]);
  });

  it("gives each app a memory limit that holds the image's heap limit plus its code and native memory", () => {
    const runtime = readDockerfile(fromRoot('docker/Dockerfile')).stages.at(-1)!;
    expect(memoryProblems(resources, SERVICES, stageEnv(runtime).NODE_OPTIONS)).toEqual([]);
  });

  it('has every Service select an existing workload, and every Ingress and HTTPRoute backend name an existing Service and port', () => {
    expect(serviceProblems(resources)).toEqual([]);
    expect(ingressProblems(resources)).toEqual([]);
    expect(gatewayApiProblems(resources)).toEqual([]);
  });

  it('has every app scraped (pod annotations and a ServiceMonitor on /metrics) and its HPA scaling on request rate through the adapter rule', () => {
    expect(monitoringProblems(resources, renderMonitoring(), SERVICES)).toEqual([]);
  });

  it("points each app's database URL at its own server and database, which only that app may reach", () => {
    expect(databaseProblems(resources, SERVICES)).toEqual([]);
    expect(networkPolicyProblems(resources, SERVICES)).toEqual([]);
  });

  it('runs each database as a three-member replica set with keyfile auth, TLS, anti-affinity, a PDB, a bootstrap Job and nightly backups', () => {
    // the development overlay lets a one-node cluster hold the three members (preferred anti-affinity)
    expect(replicaSetProblems(resources, SERVICES, { separateNodes: label !== 'overlay dev' })).toEqual([]);
  });

  it('denies all traffic by default and allows only the entry, scraping, DNS, each app to its own database, and HTTPS out for the feeds', () => {
    expect(networkPolicyBaselineProblems(resources, SERVICES)).toEqual([]);
  });

  it('has a restore Job per database that reads the backups volume and writes to that replica set', () => {
    expect(restoreJobProblems(readRestoreJobs(), resources, SERVICES)).toEqual([]);
  });
});

describe.each(OVERLAYS)('k8s overlay %s', (overlay) => {
  const resources = renderOverlay(overlay);

  it('has every ConfigMap, Secret and key the pods refer to', () => {
    expect(referenceProblems(resources)).toEqual([]);
  });

  it("gives each replica set a keyfile mongod accepts: 6 to 1024 base64 characters (the production templates' placeholder aside)", () => {
    for (const { name } of SERVICES) {
      const data = resources.find((r) => r.kind === 'Secret' && r.metadata.name === name)!.data as Record<string, string>;
      const keyfile = Buffer.from(data.MONGO_KEYFILE, 'base64').toString();
      if (overlay === 'prod' && keyfile === 'change-me') continue;
      expect([name, /^[A-Za-z0-9+/=]{6,1024}$/.test(keyfile.replace(/\s/g, ''))]).toEqual([name, true]);
    }
  });

  it('puts everything in its own namespace', () => {
    const namespace = resources.find((r) => r.kind === 'Namespace')?.metadata.name;
    expect(namespace).toBe(`crm-${overlay}`);
    expect(resources.filter((r) => r.kind !== 'Namespace' && r.metadata.namespace !== namespace)).toEqual([]);
  });

  it('enters through the Gateway API only (the Ingress is the alternative, not applied beside it)', () => {
    expect(resources.filter((r) => r.kind === 'Gateway').map((r) => r.metadata.name)).toEqual(['public']);
    expect(resources.filter((r) => r.kind === 'Ingress')).toEqual([]);
  });

  it('routes hosts exactly like the local gateway: the same services under one domain, probe paths kept out', () => {
    const byRoute = gatewayHostServices(resources);
    const domains = new Set(Object.keys(byRoute).map((host) => host.split('.').slice(1).join('.')));
    expect(domains).toEqual(new Set([overlay === 'dev' ? 'localhost' : 'example.com']));
    const [domain] = domains;
    const byGateway = Object.fromEntries(SERVICES.map((s) => `${s.subdomain}.${domain}`).map((host) => [host, serviceForHost(host, domain)?.name]));
    expect(byRoute).toEqual(byGateway);
    const listeners = (resources.find((r) => r.kind === 'Gateway')!.spec as { listeners: { hostname: string }[] }).listeners;
    expect(listeners.map((l) => l.hostname)).toEqual([`*.${domain}`, `*.${domain}`]);
  });

  it('refuses every spelling of the probe paths the gateway refuses, and routes the rest to the app (Envoy Gateway route model)', () => {
    for (const route of httpRoutes(resources).filter((r) => r.metadata.name !== 'https-redirect')) {
      const rules = pathRules(route);
      const app = rules.find((r) => r.value === '/')!.service;
      for (const target of [...PROBE_PATH_SPELLINGS, ...ROUTED_PATHS]) {
        expect([route.metadata.name, target, gatewayBackend(rules, target)]).toEqual([route.metadata.name, target, isProbeTarget(target) ? SINK : app]);
      }
    }
  });

  it("closes idle connections to the apps at the Gateway before the apps' keep-alive time ends", () => {
    expect(gatewayKeepAliveProblems(resources)).toEqual([]);
  });
});

describe('k8s Ingress alternative (k8s/ingress behind the base)', () => {
  const resources = renderIngressAlternative();

  it('routes hosts exactly like the local gateway: the same services under one domain, probe paths kept out', () => {
    const routes = ingressRoutes(resources);
    const domains = new Set(routes.map((r) => r.host.split('.').slice(1).join('.')));
    expect(domains.size).toBe(1);
    const [domain] = domains;

    const appRoutes = routes.filter((r) => r.path === '/' && r.pathType === 'Prefix');
    const byIngress = Object.fromEntries(appRoutes.map((r) => [r.host, r.service]));
    const byGateway = Object.fromEntries(SERVICES.map((s) => `${s.subdomain}.${domain}`).map((host) => [host, serviceForHost(host, domain)?.name]));
    expect(byIngress).toEqual(byGateway);
    const others = routes.filter((r) => !(r.path === '/' && r.pathType === 'Prefix'));
    expect(others.map((r) => [r.path, r.pathType, r.service])).toEqual(SERVICES.map(() => [PROBE_PATH_RULE, 'ImplementationSpecific', SINK]));
  });

  it('refuses every spelling of the probe paths the gateway refuses, and routes the rest to the app (nginx location model)', () => {
    const ingress = resources.find((r) => r.kind === 'Ingress')!;
    expect(usesRegex(ingress)).toBe(true);
    const routes = ingressRoutes(resources);
    for (const host of new Set(routes.map((r) => r.host))) {
      const hostRoutes = routes.filter((r) => r.host === host);
      const app = hostRoutes.find((r) => r.path === '/')!.service;
      for (const target of [...PROBE_PATH_SPELLINGS, ...ROUTED_PATHS]) {
        expect([host, target, nginxBackend(hostRoutes, target, true)]).toEqual([host, target, isProbeTarget(target) ? SINK : app]);
      }
    }
  });

  it("closes idle connections to the apps at the ingress before the apps' keep-alive time ends", () => {
    expect(keepAliveProblems(renderIngressController(), resources)).toEqual([]);
  });
});
