import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { applyJsonPatch, type PatchOperation } from './json-patch';
import { isResource, type Resource } from './resource';
import { ROOT, readYaml, readYamlDocuments } from './workspace';

interface Generator {
  name: string;
  behavior?: 'create' | 'merge' | 'replace';
  literals?: string[];
  files?: string[];
  envs?: string[];
  /** Only disableNameSuffixHash, which changes nothing here: the checks use names without the hash. */
  options?: { disableNameSuffixHash?: boolean };
}

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  resources?: string[];
  labels?: { pairs: Record<string, string> }[];
  images?: { name: string; newName?: string; newTag?: string }[];
  replicas?: { name: string; count: number }[];
  configMapGenerator?: Generator[];
  secretGenerator?: Generator[];
  patches?: { target: { kind: string; name: string }; patch?: string; path?: string }[];
}

const SUPPORTED = new Set(['apiVersion', 'kind', 'namespace', 'resources', 'labels', 'images', 'replicas', 'configMapGenerator', 'secretGenerator', 'patches']);
const CLUSTER_SCOPED = new Set(['Namespace', 'PersistentVolume', 'StorageClass', 'ClusterRole', 'ClusterRoleBinding', 'IngressClass']);

export interface RenderOptions {
  /** Reads an env file of a secretGenerator (tests pass one that falls back to the committed `.example`). */
  readSecretFile?(file: string): string;
}

/**
 * What `kubectl kustomize <dir>` gives, for the kustomize features this repository uses, without
 * the generated names' hash suffixes (kustomize rewrites every reference to match, so checks by the
 * plain names hold). A field outside those features throws, so a new one cannot be skipped silently.
 */
export function renderKustomization(dir: string, options: RenderOptions = {}): Resource[] {
  const file = path.join(dir, 'kustomization.yaml');
  const where = path.relative(ROOT, file);
  const k = readYaml<Kustomization>(file);
  const unknown = Object.keys(k).filter((key) => !SUPPORTED.has(key));
  if (unknown.length) throw new Error(`${where}: kustomize fields not understood by the checks: ${unknown.join(', ')}`);

  const resources: Resource[] = [];
  for (const entry of k.resources ?? []) {
    const target = path.join(dir, entry);
    if (!existsSync(target)) throw new Error(`${where}: resource ${entry} does not exist`);
    if (statSync(target).isDirectory()) resources.push(...renderKustomization(target, options));
    else {
      for (const document of readYamlDocuments(target)) {
        if (!isResource(document)) throw new Error(`${path.relative(ROOT, target)}: a document without apiVersion, kind and metadata.name`);
        resources.push(document);
      }
    }
  }

  for (const generator of [...(k.configMapGenerator ?? []), ...(k.secretGenerator ?? [])]) {
    const options = Object.keys(generator.options ?? {}).filter((key) => key !== 'disableNameSuffixHash');
    if (options.length) throw new Error(`${where}: generator options not understood by the checks: ${options.join(', ')}`);
  }
  for (const generator of k.configMapGenerator ?? []) generate(resources, 'ConfigMap', generator, configData(dir, generator, options), where);
  for (const generator of k.secretGenerator ?? []) {
    const data = Object.fromEntries(Object.entries(configData(dir, generator, options)).map(([key, value]) => [key, Buffer.from(value).toString('base64')]));
    generate(resources, 'Secret', { ...generator }, data, where);
  }

  for (const { target, patch, path: patchPath } of k.patches ?? []) {
    const matches = resources.filter((r) => r.kind === target.kind && r.metadata.name === target.name);
    if (matches.length !== 1) throw new Error(`${where}: patch target ${target.kind}/${target.name} matches ${matches.length} resources`);
    const operations = parse(patch ?? readFileSync(path.join(dir, patchPath ?? ''), 'utf8')) as PatchOperation[];
    if (!Array.isArray(operations)) throw new Error(`${where}: only JSON 6902 patches (a list of operations) are supported`);
    applyJsonPatch(matches[0], operations);
  }

  for (const image of k.images ?? []) {
    let used = false;
    for (const container of allContainers(resources)) {
      if (imageName(container.image) !== image.name) continue;
      used = true;
      const tag = image.newTag ?? imageTag(container.image);
      container.image = `${image.newName ?? image.name}${tag ? `:${tag}` : ''}`;
    }
    if (!used) throw new Error(`${where}: images entry ${image.name} matches no container`);
  }

  for (const { name, count } of k.replicas ?? []) {
    const workload = resources.find((r) => ['Deployment', 'StatefulSet'].includes(r.kind) && r.metadata.name === name);
    if (!workload) throw new Error(`${where}: replicas entry ${name} matches no Deployment or StatefulSet`);
    (workload.spec as { replicas?: number }).replicas = count;
  }

  for (const { pairs } of k.labels ?? []) {
    for (const r of resources) r.metadata.labels = { ...r.metadata.labels, ...pairs };
  }
  if (k.namespace) {
    for (const r of resources) if (!CLUSTER_SCOPED.has(r.kind)) r.metadata.namespace = k.namespace;
  }
  return resources;
}

function generate(resources: Resource[], kind: 'ConfigMap' | 'Secret', generator: Generator, data: Record<string, string>, where: string): void {
  const existing = resources.find((r) => r.kind === kind && r.metadata.name === generator.name);
  const behavior = generator.behavior ?? 'create';
  if (behavior === 'create') {
    if (existing) throw new Error(`${where}: ${kind} ${generator.name} is generated twice`);
    resources.push({ apiVersion: 'v1', kind, metadata: { name: generator.name }, ...(kind === 'Secret' ? { type: 'Opaque' } : {}), data });
    return;
  }
  if (!existing) throw new Error(`${where}: ${kind} ${generator.name} to ${behavior} does not exist`);
  existing.data = behavior === 'merge' ? { ...(existing.data as Record<string, string>), ...data } : data;
}

function configData(dir: string, generator: Generator, options: RenderOptions): Record<string, string> {
  const data: Record<string, string> = {};
  const add = (line: string, source: string) => {
    const at = line.indexOf('=');
    if (at <= 0) throw new Error(`${source}: "${line}" is not KEY=VALUE`);
    data[line.slice(0, at)] = line.slice(at + 1);
  };
  for (const literal of generator.literals ?? []) add(literal, `${generator.name} literals`);
  for (const file of generator.files ?? []) data[path.basename(file)] = readFileSync(path.join(dir, file), 'utf8');
  for (const env of generator.envs ?? []) {
    const file = path.join(dir, env);
    const text = (options.readSecretFile ?? ((f: string) => readFileSync(f, 'utf8')))(file);
    for (const line of text.split('\n').map((l) => l.trim())) if (line && !line.startsWith('#')) add(line, path.relative(ROOT, file));
  }
  return data;
}

export interface Container {
  name: string;
  image: string;
  [field: string]: unknown;
}

/** Kinds that run pods, and whether their pods keep running (and so need probes). */
export const POD_KINDS: Record<string, 'long-running' | 'run-to-completion'> = { Deployment: 'long-running', StatefulSet: 'long-running', Job: 'run-to-completion', CronJob: 'run-to-completion' };

type PodSpec = { containers: Container[]; initContainers?: Container[]; [field: string]: unknown };
type PodTemplate = { metadata?: { labels?: Record<string, string> }; spec: PodSpec };

/** The pod template of a Deployment, StatefulSet, Job or CronJob. */
export function podTemplate(r: Resource): PodTemplate | undefined {
  if (!(r.kind in POD_KINDS)) return undefined;
  const spec = r.spec as { template?: PodTemplate; jobTemplate?: { spec: { template: PodTemplate } } };
  return r.kind === 'CronJob' ? spec.jobTemplate?.spec.template : spec.template;
}

/** The pod spec of a Deployment, StatefulSet, Job or CronJob. */
export const podSpec = (r: Resource): PodSpec | undefined => podTemplate(r)?.spec;

export function allContainers(resources: readonly Resource[]): Container[] {
  return resources.flatMap((r) => {
    const spec = podSpec(r);
    return spec ? [...spec.containers, ...(spec.initContainers ?? [])] : [];
  });
}

/** `mongo:7.0.14` → `mongo`; `registry:5000/a/b@sha256:…` → `registry:5000/a/b`. */
export function imageName(image: string): string {
  const withoutDigest = image.split('@')[0];
  const slash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.lastIndexOf(':');
  return colon > slash ? withoutDigest.slice(0, colon) : withoutDigest;
}

/** The tag of an image reference, if any. */
export function imageTag(image: string): string | undefined {
  const withoutDigest = image.split('@')[0];
  const name = imageName(image);
  return withoutDigest.length > name.length ? withoutDigest.slice(name.length + 1) : undefined;
}
