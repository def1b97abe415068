import { SERVICES } from '@lib/services';
import { resolveMongoTarget, driverOptions } from '@lib/mongo';
import mongoose from 'mongoose';
import { readRestoreJobs, renderOverlay } from './manifests';
import { networkPolicyBaselineProblems } from './network-policy-checks';
import { containersOf } from './pod';
import { replicaSetProblems, restoreJobProblems } from './replica-set-checks';
import { find, type Resource } from './resource';

// Each check must catch the mistake it exists for: break a copy of the production overlay and look.
const fresh = (): Resource[] => renderOverlay('prod');
const get = (resources: Resource[], kind: string, name: string) => find(resources, kind, name)!;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests reach deep into manifests to break them
const spec = (r: Resource) => r.spec as Record<string, any>;
const podSpecOf = (r: Resource) => (r.kind === 'CronJob' ? spec(r).jobTemplate.spec.template.spec : spec(r).template.spec);
const env = (r: Resource, name: string) => containersOf(r)[0].env!.find((v) => v.name === name)!;

describe('the replica set checks catch', () => {
  it('two members, no keyfile, TLS not required, a certificate missing a member, members free to share a node, a PDB losing the majority', () => {
    const resources = fresh();
    const crm = get(resources, 'StatefulSet', 'crm-api-mongodb');
    spec(crm).replicas = 2;
    const news = get(resources, 'StatefulSet', 'news-api-mongodb');
    const newsArgs = containersOf(news)[0].args!;
    newsArgs.splice(newsArgs.indexOf('--keyFile=/auth/keyfile'), 1);
    newsArgs[newsArgs.indexOf('--tlsMode=requireTLS')] = '--tlsMode=preferTLS';
    spec(get(resources, 'Certificate', 'users-api-mongodb-tls')).dnsNames.splice(2, 1);
    delete podSpecOf(get(resources, 'StatefulSet', 'articles-api-mongodb')).affinity;
    spec(get(resources, 'PodDisruptionBudget', 'articles-api-mongodb')).maxUnavailable = 2;
    expect(replicaSetProblems(resources, SERVICES)).toEqual([
      'crm-api: crm-api-mongodb has 2 members, not an odd number of at least 3',
      'crm-api: crm-api-mongodb: no PodDisruptionBudget keeping a majority (2 of 2) up',
      'crm-api: crm-api-mongodb: no bootstrap Job initiating replica set "crm" with members crm-api-mongodb-0.crm-api-mongodb:27017,crm-api-mongodb-1.crm-api-mongodb:27017',
      'crm-api: crm-api-mongodb: the backup CronJob does not dump database crm of this replica set',
      'articles-api: articles-api-mongodb: members may share a node (no required pod anti-affinity on kubernetes.io/hostname)',
      'articles-api: articles-api-mongodb: no PodDisruptionBudget keeping a majority (2 of 3) up',
      'news-api: news-api-mongodb does not authenticate members with a keyfile from Secret news-api key MONGO_KEYFILE',
      'news-api: news-api-mongodb does not require TLS with the key and certificate of Secret news-api-mongodb-tls',
      'users-api: users-api-mongodb: the certificate does not name users-api-mongodb-2.users-api-mongodb',
    ]);
  });

  it('an app URL without w=majority, another replica set, plain TCP, and a backup without retention or into a pod-local directory', () => {
    const resources = fresh();
    const url = env(get(resources, 'Deployment', 'users-api'), 'USERS_MONGO_URL');
    url.value = String(url.value).replace('&w=majority', '').replace('replicaSet=users', 'replicaSet=crm');
    const crmUrl = env(get(resources, 'Deployment', 'crm-api'), 'CRM_MONGO_URL');
    crmUrl.value = String(crmUrl.value).replace('tls=true', 'tls=false');
    env(get(resources, 'CronJob', 'news-api-mongodb-backup'), 'BACKUP_KEEP').value = '0';
    env(get(resources, 'CronJob', 'articles-api-mongodb-backup'), 'BACKUP_DIR').value = '/tmp';
    expect(replicaSetProblems(resources, SERVICES)).toEqual([
      'crm-api: database URL does not use TLS with the CA (ca.crt) of Secret crm-api-mongodb-tls',
      'articles-api: articles-api-mongodb: no backup CronJob running backup.sh into a persistent volume with a retention (BACKUP_KEEP)',
      'news-api: news-api-mongodb: no backup CronJob running backup.sh into a persistent volume with a retention (BACKUP_KEEP)',
      'users-api: database URL does not name replica set "users"',
      'users-api: database URL does not ask for w=majority and retryWrites=true',
    ]);
  });

  it('a restore Job on another image, volume or replica set, or that the NetworkPolicy would not let in', () => {
    const jobs = readRestoreJobs();
    const [crm, articles, news, users] = ['crm', 'articles', 'news', 'users'].map((name) => get(jobs, 'Job', `${name}-api-mongodb-restore`));
    containersOf(crm)[0].image = 'mongo:8.0.1';
    podSpecOf(articles).volumes[0].persistentVolumeClaim.claimName = 'crm-api-mongodb-backups';
    env(news, 'MONGO_URI').value = String(env(news, 'MONGO_URI').value).replace('replicaSet=news', 'replicaSet=crm');
    delete spec(users).template.metadata.labels['crm-services/database'];
    expect(restoreJobProblems(jobs, fresh(), SERVICES)).toEqual([
      'crm-api: Job/crm-api-mongodb-restore: image mongo:8.0.1 is not the servers\' mongo:8.0.26',
      "articles-api: Job/articles-api-mongodb-restore: does not read the backup CronJob's volume",
      'news-api: Job/news-api-mongodb-restore: does not connect to replica set news as user news',
      'users-api: Job/users-api-mongodb-restore: pods lack label crm-services/database=users-api-mongodb, which the NetworkPolicy lets in',
    ].map((line) => line.replace(/^[a-z-]+: /, '')));
  });
});

describe('the network policy checks catch', () => {
  it('no default deny, no DNS, an app open to every namespace, a database open to another app, feeds over plain HTTP, egress for an app that needs none', () => {
    const resources = fresh().filter((r) => !(r.kind === 'NetworkPolicy' && ['default-deny', 'allow-dns'].includes(r.metadata.name)));
    spec(get(resources, 'NetworkPolicy', 'crm-api')).ingress[0].from.push({ namespaceSelector: {} });
    spec(get(resources, 'NetworkPolicy', 'articles-api-mongodb')).ingress[0].from.push({ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'users-api' } } });
    spec(get(resources, 'NetworkPolicy', 'news-api')).egress[1].ports[0].port = 80;
    spec(get(resources, 'NetworkPolicy', 'users-api')).egress.push({ to: [{ ipBlock: { cidr: '0.0.0.0/0' } }] });
    expect(networkPolicyBaselineProblems(resources, SERVICES)).toEqual([
      'no default-deny NetworkPolicy (every pod, Ingress and Egress, no rule)',
      'no NetworkPolicy lets pods query the cluster DNS (kube-system, UDP 53)',
      'crm-api: takes requests from {"namespaceSelector":{}}, not only from envoy-gateway-system, ingress-nginx, monitoring',
      'news-api: does not go out on HTTPS (443) to public addresses only',
      'users-api: can reach articles-api-mongodb',
      'users-api: may open connections outside the cluster',
    ]);
  });

  it('a database that any pod of the namespace reaches, an app its own database refuses, and no scraping', () => {
    const resources = fresh();
    spec(get(resources, 'NetworkPolicy', 'crm-api-mongodb')).ingress[0].from = [];
    spec(get(resources, 'NetworkPolicy', 'news-api-mongodb')).ingress[0].from.splice(0, 1);
    spec(get(resources, 'NetworkPolicy', 'users-api')).ingress[0].from.splice(1, 1);
    expect(networkPolicyBaselineProblems(resources, SERVICES)).toEqual([
      'crm-api-mongodb: any pod of the namespace can reach it',
      'articles-api: can reach crm-api-mongodb',
      'news-api: cannot reach news-api-mongodb on 27017',
      'news-api: can reach crm-api-mongodb',
      'users-api: can reach crm-api-mongodb',
      'users-api: takes no requests from monitoring',
    ]);
  });
});

describe('the database URL of the manifests', () => {
  it.each(SERVICES)('is taken unchanged by libs/mongo and the driver for $name: replica set, members, TLS, majority and retryable writes', (service) => {
    const resources = fresh();
    const raw = String(env(get(resources, 'Deployment', service.name), `${service.envPrefix}_MONGO_URL`).value).replace('$(DB_PASSWORD)', 'a-password');
    const target = resolveMongoTarget(service.envPrefix, 'default', { [`${service.envPrefix}_MONGO_URL`]: raw });
    expect(target).toEqual({ url: raw, dbName: service.database });
    // the driver mongoose uses parses the URL with the options the apps add (nothing is connected)
    const { autoCreate: _c, autoIndex: _i, bufferCommands: _b, ...options } = driverOptions({ dbName: target.dbName });
    const client = new mongoose.mongo.MongoClient(target.url!, options);
    const server = `${service.name}-mongodb`;
    expect({
      hosts: client.options.hosts.map(String),
      replicaSet: client.options.replicaSet,
      tls: client.options.tls,
      tlsCAFile: client.options.tlsCAFile,
      retryWrites: client.options.retryWrites,
      w: client.options.writeConcern?.w,
      dbName: client.options.dbName,
      authSource: client.options.credentials?.source,
    }).toEqual({
      hosts: [0, 1, 2].map((i) => `${server}-${i}.${server}:27017`),
      replicaSet: service.database,
      tls: true,
      tlsCAFile: '/etc/mongodb-ca/ca.crt',
      retryWrites: true,
      w: 'majority',
      dbName: service.database,
      authSource: service.database,
    });
  });
});
