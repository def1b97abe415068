import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { SERVICES, serviceForHost } from '@lib/services';
import { databaseProblems, networkPolicyProblems } from './database-checks';
import { schemaProblems } from './k8s-schema';
import { OVERLAYS, renderBase, renderOverlay } from './manifests';
import { readDockerfile, stageEnv } from './dockerfile';
import { memoryProblems } from './memory-checks';
import { isResource } from './resource';
import { ingressProblems, ingressRoutes, serviceProblems } from './routing-checks';
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

const renderings = [['base', renderBase] as const, ...OVERLAYS.map((overlay) => [`overlay ${overlay}`, () => renderOverlay(overlay)] as const)];

describe.each(renderings)('k8s %s, rendered', (_label, render) => {
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

  it('has every Service select an existing workload, and every ingress backend name an existing Service and port', () => {
    expect(serviceProblems(resources)).toEqual([]);
    expect(ingressProblems(resources)).toEqual([]);
  });

  it("points each app's database URL at its own server and database, which only that app may reach", () => {
    expect(databaseProblems(resources, SERVICES)).toEqual([]);
    expect(networkPolicyProblems(resources, SERVICES)).toEqual([]);
  });
});

describe.each(OVERLAYS)('k8s overlay %s', (overlay) => {
  const resources = renderOverlay(overlay);

  it('has every ConfigMap, Secret and key the pods refer to', () => {
    expect(referenceProblems(resources)).toEqual([]);
  });

  it('puts everything in its own namespace', () => {
    const namespace = resources.find((r) => r.kind === 'Namespace')?.metadata.name;
    expect(namespace).toBe(`crm-${overlay}`);
    expect(resources.filter((r) => r.kind !== 'Namespace' && r.metadata.namespace !== namespace)).toEqual([]);
  });

  it('routes hosts exactly like the local gateway: the same services under one domain, probe paths kept out', () => {
    const routes = ingressRoutes(resources);
    const domains = new Set(routes.map((r) => r.host.split('.').slice(1).join('.')));
    expect(domains.size).toBe(1);
    const [domain] = domains;

    const appRoutes = routes.filter((r) => r.path === '/' && r.pathType === 'Prefix');
    const byIngress = Object.fromEntries(appRoutes.map((r) => [r.host, r.service]));
    const byGateway = Object.fromEntries(SERVICES.map((s) => `${s.subdomain}.${domain}`).map((host) => [host, serviceForHost(host, domain)?.name]));
    expect(byIngress).toEqual(byGateway);
    expect(routes.filter((r) => !(r.path === '/' && r.pathType === 'Prefix')).map((r) => r.service)).toEqual(routes.filter((r) => r.pathType === 'Exact').map(() => 'not-routed'));
  });
});
