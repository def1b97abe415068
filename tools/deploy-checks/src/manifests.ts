import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { renderKustomization } from './kustomize';
import { isResource, type Resource } from './resource';
import { fromRoot, readYamlDocuments } from './workspace';

export const OVERLAYS = ['dev', 'prod'] as const;

/**
 * An overlay as `kubectl kustomize` would render it. The production secret files are not in git, so
 * their committed `.example` templates stand in for them.
 */
export function renderOverlay(overlay: (typeof OVERLAYS)[number]): Resource[] {
  return renderKustomization(fromRoot('k8s', 'overlays', overlay), {
    readSecretFile: (file) => readFileSync(existsSync(file) ? file : `${file}.example`, 'utf8'),
  });
}

export const renderBase = () => renderKustomization(fromRoot('k8s', 'base'));

/** The base behind the alternative entry, an Ingress for ingress-nginx (k8s/ingress), as an overlay would add it. */
export const renderIngressAlternative = () => [...renderBase(), ...renderKustomization(fromRoot('k8s', 'ingress'))];

/** The ingress-nginx controller settings the manifests rely on (applied into the controller's namespace). */
export const renderIngressController = () => renderKustomization(fromRoot('k8s', 'ingress-nginx'));

/** The restore Jobs of k8s/mongodb-restore, one file per service, applied apart from the overlays. */
export const readRestoreJobs = () =>
  readdirSync(fromRoot('k8s', 'mongodb-restore'))
    .filter((file) => file.endsWith('.yaml'))
    .flatMap((file) => readYamlDocuments(fromRoot('k8s', 'mongodb-restore', file)))
    .filter(isResource);
