import type { ServiceEntry } from '@lib/services';
import ConnectionString from 'mongodb-connection-string-url';
import { memberHosts, statefulSetReplicas } from './database-checks';
import { podSpec } from './kustomize';
import { containersOf, initContainersOf, podLabels, selects, type EnvVar, type PodContainer } from './pod';
import { describe, find, type Resource } from './resource';

const envValue = (c: PodContainer | undefined, name: string) => c?.env?.find((v: EnvVar) => v.name === name)?.value;
const argValue = (args: string[], flag: string) => args.find((a) => a.startsWith(`${flag}=`))?.slice(flag.length + 1);

interface Volume {
  name: string;
  secret?: { secretName: string; items?: { key: string; path: string }[] };
  configMap?: { name: string };
  persistentVolumeClaim?: { claimName: string };
}
const volumes = (r: Resource) => ((podSpec(r) as { volumes?: Volume[] } | undefined)?.volumes ?? []);

/** The volume mounted at a directory holding `file` in container `c`, if any. */
function volumeFor(r: Resource, c: PodContainer, file: string): Volume | undefined {
  const mount = (c.volumeMounts ?? []).filter((m) => file.startsWith(`${m.mountPath.replace(/\/$/, '')}/`)).sort((a, b) => b.mountPath.length - a.mountPath.length)[0];
  return mount && volumes(r).find((v) => v.name === mount.name);
}

/** The file `file` in `c` comes from key `key` of Secret `secret` (a whole-Secret volume or an item of it). */
function fromSecret(r: Resource, c: PodContainer, file: string, secret: string, key: string): boolean {
  const volume = volumeFor(r, c, file);
  if (volume?.secret?.secretName !== secret) return false;
  const name = file.split('/').at(-1);
  return volume.secret.items ? volume.secret.items.some((i) => i.key === key && i.path === name) : name === key;
}

/**
 * What a production replica set needs, per app database: an odd number (3 or more) of members with
 * `--replSet` named like the database, keyfile authentication from the app's Secret, TLS required
 * with a cert-manager Certificate covering every member name, members on different nodes, a PDB
 * keeping the majority (`separateNodes: false` for a one-node development cluster), the bootstrap Job initiating exactly these members, the app connecting with
 * TLS to that CA, majority writes and retryable writes, and a backup CronJob dumping to a volume.
 */
export function replicaSetProblems(resources: readonly Resource[], services: readonly ServiceEntry[], options: { separateNodes: boolean } = { separateNodes: true }): string[] {
  const problems: string[] = [];
  for (const { name, envPrefix, database } of services) {
    const server = `${name}-mongodb`;
    const statefulSet = find(resources, 'StatefulSet', server);
    const [mongo] = statefulSet ? containersOf(statefulSet) : [];
    if (!statefulSet || !mongo) continue; // reported by databaseProblems
    const at = `${name}: ${server}`;
    const replicas = statefulSetReplicas(statefulSet);
    const members = memberHosts(server, replicas);
    if (replicas < 3 || replicas % 2 === 0) problems.push(`${at} has ${replicas} members, not an odd number of at least 3`);

    const args = mongo.args ?? [];
    if (argValue(args, '--replSet') !== database) problems.push(`${at} is not replica set "${database}" (--replSet)`);
    const keyFile = argValue(args, '--keyFile');
    const keyFileVolume = keyFile ? volumeFor(statefulSet, mongo, keyFile) : undefined;
    const copier = initContainersOf(statefulSet).find((c) => c.volumeMounts?.some((m) => m.name === keyFileVolume?.name));
    const keySource = volumes(statefulSet).find((v) => copier?.volumeMounts?.some((m) => m.name === v.name) && v.secret);
    if (!keyFile || !keySource || keySource.secret?.secretName !== name || !keySource.secret.items?.some((i) => i.key === 'MONGO_KEYFILE')) {
      problems.push(`${at} does not authenticate members with a keyfile from Secret ${name} key MONGO_KEYFILE`);
    }
    const certificate = find(resources, 'Certificate', `${server}-tls`);
    const certSpec = certificate?.spec as { secretName?: string; dnsNames?: string[]; additionalOutputFormats?: { type: string }[] } | undefined;
    const tlsFile = argValue(args, '--tlsCertificateKeyFile') ?? '';
    if (argValue(args, '--tlsMode') !== 'requireTLS' || !fromSecret(statefulSet, mongo, tlsFile, `${server}-tls`, tlsFile.split('/').at(-1) ?? '')) {
      problems.push(`${at} does not require TLS with the key and certificate of Secret ${server}-tls`);
    }
    if (certSpec?.secretName !== `${server}-tls` || !certSpec.additionalOutputFormats?.some((f) => f.type === 'CombinedPEM')) {
      problems.push(`${at}: no Certificate writing Secret ${server}-tls with a CombinedPEM (tls-combined.pem)`);
    }
    const uncovered = members.map((h) => h.split(':')[0]).filter((h) => !certSpec?.dnsNames?.includes(h));
    if (uncovered.length) problems.push(`${at}: the certificate does not name ${uncovered.join(', ')}`);

    const antiAffinity = (podSpec(statefulSet) as { affinity?: { podAntiAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: { topologyKey: string; labelSelector?: { matchLabels?: Record<string, string> } }[] } } }).affinity?.podAntiAffinity;
    if (options.separateNodes && !antiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.some((t) => t.topologyKey === 'kubernetes.io/hostname' && selects(t.labelSelector?.matchLabels, podLabels(statefulSet)))) {
      problems.push(`${at}: members may share a node (no required pod anti-affinity on kubernetes.io/hostname)`);
    }
    const pdbs = resources.filter((r) => r.kind === 'PodDisruptionBudget' && selects((r.spec as { selector?: { matchLabels?: Record<string, string> } }).selector?.matchLabels, podLabels(statefulSet)));
    const pdb = pdbs[0]?.spec as { maxUnavailable?: number; minAvailable?: number } | undefined;
    const majority = Math.floor(replicas / 2) + 1;
    if (pdbs.length !== 1 || !(pdb?.maxUnavailable !== undefined ? replicas - pdb.maxUnavailable >= majority : (pdb?.minAvailable ?? 0) >= majority)) {
      problems.push(`${at}: no PodDisruptionBudget keeping a majority (${majority} of ${replicas}) up`);
    }

    const bootstrap = find(resources, 'Job', `${server}-bootstrap`);
    const [init] = bootstrap ? containersOf(bootstrap) : [];
    if (envValue(init, 'REPLICA_SET') !== database || envValue(init, 'MEMBERS') !== members.join(',')) {
      problems.push(`${at}: no bootstrap Job initiating replica set "${database}" with members ${members.join(',')}`);
    }

    const app = find(resources, 'Deployment', name);
    const appContainer = app && containersOf(app).find((c) => c.name === name);
    const rawUrl = envValue(appContainer, `${envPrefix}_MONGO_URL`);
    if (app && appContainer && typeof rawUrl === 'string') {
      const url = new ConnectionString(rawUrl.replace(/\$\(([A-Z0-9_]+)\)/g, 'placeholder'));
      const option = (key: string) => url.searchParams.get(key);
      if (option('replicaSet') !== database) problems.push(`${name}: database URL does not name replica set "${database}"`);
      if (option('w') !== 'majority' || option('retryWrites') !== 'true') problems.push(`${name}: database URL does not ask for w=majority and retryWrites=true`);
      if (option('tls') !== 'true' || !fromSecret(app, appContainer, option('tlsCAFile') ?? '', `${server}-tls`, 'ca.crt')) {
        problems.push(`${name}: database URL does not use TLS with the CA (ca.crt) of Secret ${server}-tls`);
      }
    }

    const backup = find(resources, 'CronJob', `${server}-backup`);
    const [dump] = backup ? containersOf(backup) : [];
    const backupDir = String(envValue(dump, 'BACKUP_DIR') ?? '');
    const backupVolume = backup && dump && volumeFor(backup, dump, `${backupDir}/x`);
    const claim = backupVolume?.persistentVolumeClaim && find(resources, 'PersistentVolumeClaim', backupVolume.persistentVolumeClaim.claimName);
    const backupUrl = String(envValue(dump, 'MONGO_URI') ?? '');
    if (!dump || !(dump.command ?? []).join(' ').includes('backup.sh') || !claim || !/^[1-9]\d*$/.test(String(envValue(dump, 'BACKUP_KEEP')))) {
      problems.push(`${at}: no backup CronJob running backup.sh into a persistent volume with a retention (BACKUP_KEEP)`);
    } else if (!backupUrl.includes(`@${members.join(',')}/${database}?`) || envValue(dump, 'DATABASE') !== database) {
      problems.push(`${at}: the backup CronJob does not dump database ${database} of this replica set`);
    }
  }
  return problems;
}

/** The restore Jobs (k8s/mongodb-restore, applied apart) fit what the overlay runs: same image, volume, replica set, database. */
export function restoreJobProblems(restoreJobs: readonly Resource[], resources: readonly Resource[], services: readonly ServiceEntry[]): string[] {
  const problems: string[] = [];
  for (const { name, database } of services) {
    const server = `${name}-mongodb`;
    const job = restoreJobs.find((r) => r.kind === 'Job' && r.metadata.name === `${server}-restore`);
    const backup = find(resources, 'CronJob', `${server}-backup`);
    const statefulSet = find(resources, 'StatefulSet', server);
    if (!job || !backup || !statefulSet) {
      problems.push(`${name}: no restore Job ${server}-restore for its backups`);
      continue;
    }
    const [restore] = containersOf(job);
    const [dump] = containersOf(backup);
    const at = `${describe(job)}`;
    if (restore.image !== containersOf(statefulSet)[0].image) problems.push(`${at}: image ${restore.image} is not the servers' ${containersOf(statefulSet)[0].image}`);
    if (!(restore.command ?? []).join(' ').includes('restore.sh')) problems.push(`${at}: does not run restore.sh`);
    const claimOf = (r: Resource, c: PodContainer) => volumeFor(r, c, `${String(envValue(c, 'BACKUP_DIR'))}/x`)?.persistentVolumeClaim?.claimName;
    if (!claimOf(job, restore) || claimOf(job, restore) !== claimOf(backup, dump)) problems.push(`${at}: does not read the backup CronJob's volume`);
    if (envValue(restore, 'DATABASE') !== database) problems.push(`${at}: restores database ${String(envValue(restore, 'DATABASE'))}, not ${database}`);
    const url = new ConnectionString(String(envValue(restore, 'MONGO_URI') ?? 'mongodb://invalid').replace(/\$\(([A-Z0-9_]+)\)/g, 'placeholder'));
    const members = memberHosts(server, statefulSetReplicas(statefulSet));
    if (url.hosts.join(',') !== members.join(',') || url.searchParams.get('replicaSet') !== database || url.username !== database) {
      problems.push(`${at}: does not connect to replica set ${database} as user ${database}`);
    }
    if (podLabels(job)['crm-services/database'] !== server) problems.push(`${at}: pods lack label crm-services/database=${server}, which the NetworkPolicy lets in`);
  }
  return problems;
}
