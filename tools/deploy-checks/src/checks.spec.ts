import { INTERNAL_PATHS, PROBE_PATH_SPELLINGS, SERVICES } from '@lib/services';
import { databaseProblems, networkPolicyProblems } from './database-checks';
import { schemaProblems } from './k8s-schema';
import { PROBE_PATH_REGEX, gatewayApiProblems } from './gateway-api-checks';
import { gatewayKeepAliveProblems, keepAliveProblems } from './keepalive-checks';
import { renderIngressAlternative, renderIngressController, renderOverlay } from './manifests';
import { heapBudgetMb, memoryProblems, quantityMiB } from './memory-checks';
import { monitoringProblems, renderMonitoring } from './monitoring-checks';
import { containersOf } from './pod';
import { find, type Resource } from './resource';
import { ingressProblems, serviceProblems } from './routing-checks';
import { appProblems, containerProblems, referenceProblems } from './workload-checks';

// Each check must catch the mistake it exists for: break a copy of the dev overlay and look.
const fresh = (): Resource[] => renderOverlay('dev');
const get = (resources: Resource[], kind: string, name: string) => find(resources, kind, name)!;
const app = (resources: Resource[]) => containersOf(get(resources, 'Deployment', 'users-api'))[0];
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests reach deep into manifests to break them
const spec = (r: Resource) => r.spec as Record<string, any>;

describe('the checks catch', () => {
  it('a schema violation: a number where Kubernetes wants a string', () => {
    const resources = fresh();
    (app(resources).env![0] as { value?: unknown }).value = 3000;
    expect(schemaProblems(get(resources, 'Deployment', 'users-api'))).toEqual([expect.stringMatching(/^Deployment\/users-api: .*env\/0\/value must be string/)]);
    expect(containerProblems(resources)).toContain('Deployment/users-api container users-api: env DB_PASSWORD is 3000, not a string');
  });

  it('an unknown kind', () => {
    expect(schemaProblems({ apiVersion: 'apps/v1', kind: 'Deploymnet', metadata: { name: 'x' } })).toEqual(['Deploymnet/x: apps/v1 has no kind Deploymnet']);
  });

  it('latest and untagged images, missing probes and limits, privilege', () => {
    const resources = fresh();
    const c = app(resources);
    c.image = 'crm-services/users-api:latest';
    delete c.readinessProbe;
    delete c.resources!.limits;
    c.securityContext!.readOnlyRootFilesystem = false;
    containersOf(get(resources, 'StatefulSet', 'news-api-mongodb'))[0].image = 'mongo';
    const at = 'Deployment/users-api container users-api';
    expect(containerProblems(resources)).toEqual([
      'StatefulSet/news-api-mongodb container mongodb: image mongo is not pinned to a version',
      `${at}: image crm-services/users-api:latest is not pinned to a version`,
      `${at}: no readiness probe`,
      `${at}: no cpu limits`,
      `${at}: no memory limits`,
      `${at}: root filesystem is not read-only`,
    ]);
  });

  it('an unsafe rollout, a grace period shorter than preStop + drain, wrong probe paths, a plain secret, a missing HPA', () => {
    const resources = fresh();
    const deployment = get(resources, 'Deployment', 'users-api');
    spec(deployment).strategy.rollingUpdate.maxUnavailable = 1;
    spec(deployment).template.spec.terminationGracePeriodSeconds = 15;
    app(resources).livenessProbe!.httpGet!.path = '/readyz';
    app(resources).env!.push({ name: 'USERS_CURSOR_SECRET', value: 'in-the-manifest' });
    resources.splice(resources.indexOf(get(resources, 'HorizontalPodAutoscaler', 'users-api')), 1);
    expect(appProblems(resources, SERVICES)).toEqual([
      'users-api: not a rolling update with maxUnavailable 0',
      'users-api: liveness probe is not GET /healthz',
      'users-api: terminationGracePeriodSeconds 15 is not longer than preStop 5 s + drain 10 s',
      'users-api: USERS_CURSOR_SECRET not taken from a Secret',
      'users-api: no HorizontalPodAutoscaler scaling the Deployment',
    ]);
  });

  it('an app not scraped, an HPA without the request rate, a ServiceMonitor on the wrong path, an adapter rule missing', () => {
    const resources = fresh();
    const annotations = spec(get(resources, 'Deployment', 'users-api')).template.metadata.annotations as Record<string, string>;
    annotations['prometheus.io/port'] = '9090';
    delete annotations['prometheus.io/scrape'];
    spec(get(resources, 'HorizontalPodAutoscaler', 'news-api')).metrics.pop();
    const monitoring = renderMonitoring();
    spec(get(monitoring, 'ServiceMonitor', 'crm-api')).endpoints[0].path = '/metricz';
    monitoring.splice(monitoring.indexOf(get(monitoring, 'ServiceMonitor', 'articles-api')), 1);
    expect(monitoringProblems(resources, monitoring, SERVICES)).toEqual([
      'ServiceMonitor/crm-api: no endpoint scraping /metrics through a named port of Service/crm-api',
      'articles-api: 0 ServiceMonitors select its Service, expected 1',
      'news-api: the HPA does not scale on the Pods metric http_requests_per_second',
      'users-api: pods not annotated prometheus.io/scrape: "true"',
      'users-api: prometheus.io/port is 9090, not the http port 3000',
    ]);
    const withoutRule = renderMonitoring().filter((r) => r.kind !== 'ConfigMap');
    expect(monitoringProblems(fresh(), withoutRule, SERVICES)).toEqual(['prometheus-adapter-rules: no rule serving http_requests_per_second']);
    expect(schemaProblems({ ...get(renderMonitoring(), 'ServiceMonitor', 'news-api'), spec: { selector: {}, endpoints: [{ port: 80, path: 'metrics', interval: 'often' }] } })).toEqual([
      'ServiceMonitor/news-api: spec.selector.matchLabels must be an object',
      'ServiceMonitor/news-api: spec.endpoints/0/port must be a port name',
      'ServiceMonitor/news-api: spec.endpoints/0/path must be a path',
      'ServiceMonitor/news-api: spec.endpoints/0/interval must be a duration',
    ]);
  });

  it('a memory limit too small for the heap flags, and a heap sized from the machine', () => {
    const resources = fresh();
    app(resources).resources!.limits!.memory = '192Mi';
    containersOf(get(resources, 'Deployment', 'crm-api'))[0].env!.push({ name: 'NODE_OPTIONS', value: '--enable-source-maps' });
    expect(memoryProblems(resources, SERVICES, '--max-old-space-size=128 --max-semi-space-size=4')).toEqual([
      'crm-api: NODE_OPTIONS sets no --max-old-space-size, so V8 sizes its heap from the node\'s memory, not the container\'s limit',
      'users-api: memory limit 192 MiB does not hold the heap limit 140 MB + 96 MB of code and native memory',
    ]);
    expect(memoryProblems(fresh(), SERVICES, undefined)).toHaveLength(SERVICES.length);
  });

  it('memory quantities and heap flags, read the way Kubernetes and V8 read them', () => {
    expect(['256Mi', '1Gi', '262144Ki', '268435456', '300M', 'lots'].map(quantityMiB)).toEqual([256, 1024, 256, 256, 300e6 / 2 ** 20, NaN]);
    expect(heapBudgetMb('--max-old-space-size=128 --max-semi-space-size=4')).toBe(140);
    expect(heapBudgetMb('--max-old-space-size=200')).toBe(248); // V8's default semi-space: 16 MB
    expect(heapBudgetMb('--max-semi-space-size=4')).toBeUndefined();
  });

  it('an app listening on loopback, or without trusted proxies or with a bad TRUST_PROXY', () => {
    const resources = fresh();
    const config = (name: string) => get(resources, 'ConfigMap', `${name}-config`).data as Record<string, string>;
    delete config('users-api').BIND_ADDRESS;
    config('news-api').BIND_ADDRESS = '127.0.0.1';
    delete config('crm-api').TRUST_PROXY;
    config('articles-api').TRUST_PROXY = 'the ingress';
    expect(appProblems(resources, SERVICES)).toEqual([
      "crm-api: TRUST_PROXY is not set: every client would be counted as the entry proxy's address (one sign-in limit for everyone)",
      'articles-api: TRUST_PROXY must be a hop count (1) or a list of addresses, CIDRs (10.0.0.0/8) and loopback, linklocal, uniquelocal; "the ingress" is none of these',
      'news-api: BIND_ADDRESS is 127.0.0.1, not 0.0.0.0: the app would listen where probes and the Service cannot reach it',
      'users-api: BIND_ADDRESS is not set, not 0.0.0.0: the app would listen where probes and the Service cannot reach it',
    ]);
  });

  it('a service of the table without manifests', () => {
    const resources = fresh().filter((r) => r.metadata.name !== 'news-api');
    expect(appProblems(resources, SERVICES)).toContain('news-api: no Deployment');
  });

  it('a missing Secret key and a missing ConfigMap', () => {
    const resources = fresh();
    delete (get(resources, 'Secret', 'crm-api').data as Record<string, string>).CRM_CURSOR_SECRET;
    resources.splice(resources.indexOf(get(resources, 'ConfigMap', 'users-api-config')), 1);
    expect(referenceProblems(resources)).toEqual([
      'Deployment/crm-api container crm-api env CRM_CURSOR_SECRET: Secret crm-api has no key CRM_CURSOR_SECRET',
      'Deployment/users-api container users-api: ConfigMap users-api-config does not exist',
    ]);
  });

  it('a Service selecting nothing, a backend to a missing Service or port, plain HTTP, a routed probe path', () => {
    const resources = renderIngressAlternative();
    spec(get(resources, 'Service', 'articles-api')).selector = { 'app.kubernetes.io/name': 'article-api' };
    const ingress = get(resources, 'Ingress', 'public');
    const rules = spec(ingress).rules;
    rules[0].http.paths[1].backend.service.name = 'crm';
    rules[3].http.paths[1].backend.service.port = { name: 'https' };
    rules[1].http.paths.splice(0, 1);
    delete ingress.metadata.annotations!['nginx.ingress.kubernetes.io/force-ssl-redirect'];
    spec(ingress).tls[0].hosts.pop();
    expect(serviceProblems(resources)).toEqual(['Service/articles-api: selects 0 workloads, expected 1']);
    expect(ingressProblems(resources)).toEqual([
      'Ingress/public crm.example.com/: Service crm does not exist',
      'Ingress/public users.example.com/: Service users-api has no port https',
      'Ingress/public: nginx.ingress.kubernetes.io/force-ssl-redirect is not "true"',
      'Ingress/public: host articles.example.com routes the probe paths to the app',
      `Ingress/public: host articles.example.com routes ${PROBE_PATH_SPELLINGS.join(' ')} unlike the gateway`,
      'Ingress/public: host "users.example.com" has no TLS certificate',
    ]);
  });

  it('probe-path rules that miss spellings: exact paths only, or the regex without use-regex', () => {
    const resources = renderIngressAlternative();
    const ingress = get(resources, 'Ingress', 'public');
    const exactOnly = INTERNAL_PATHS.map((path) => ({ path, pathType: 'Exact', backend: { service: { name: 'not-routed', port: { name: 'http' } } } }));
    spec(ingress).rules[0].http.paths.splice(0, 1, ...exactOnly);
    delete ingress.metadata.annotations!['nginx.ingress.kubernetes.io/use-regex'];
    expect(ingressProblems(resources)).toEqual([
      'Ingress/public crm.example.com/healthz: routed to Service not-routed, which has no pods',
      'Ingress/public crm.example.com/readyz: routed to Service not-routed, which has no pods',
      'Ingress/public crm.example.com/metrics: routed to Service not-routed, which has no pods',
      'Ingress/public: nginx.ingress.kubernetes.io/use-regex is not "true"',
      'Ingress/public: host crm.example.com routes the probe paths to the app',
      // nginx itself normalises //readyz, /%72eadyz and /./readyz onto the exact paths, but not these
      'Ingress/public: host crm.example.com routes /readyz/ /healthz/ /readyz%2F /readyz#x /readyz\\?x /readyz;x /READYZ /HealthZ/ http://articles.localhost//healthz/ /metrics/ /metrics%2F /metrics;x /metrics\\?x /METRICS /Metrics/ unlike the gateway',
      // read as a plain prefix, the regex path matches nothing
      ...['articles', 'news', 'users'].map((name) => `Ingress/public: host ${name}.example.com routes ${PROBE_PATH_SPELLINGS.join(' ')} unlike the gateway`),
    ]);
  });

  it('an ingress keeping idle upstream connections as long as the apps, and no proxy-send-timeout', () => {
    const controller = renderIngressController();
    (get(controller, 'ConfigMap', 'ingress-nginx-controller').data as Record<string, string>)['upstream-keepalive-timeout'] = '75';
    const resources = renderIngressAlternative();
    delete get(resources, 'Ingress', 'public').metadata.annotations!['nginx.ingress.kubernetes.io/proxy-send-timeout'];
    expect(keepAliveProblems(controller, resources)).toEqual([
      "ConfigMap/ingress-nginx-controller: upstream-keepalive-timeout 75 s is not below the apps' keep-alive 65 s",
      'ConfigMap/ingress-nginx-controller: upstream-keepalive-timeout 75 s is not PROXY_KEEPALIVE_MS (60 s) of libs/http',
      'Ingress/public: nginx.ingress.kubernetes.io/proxy-send-timeout is not a number of seconds',
    ]);
  });

  it('HTTPRoutes: a missing Service, port or listener, plain HTTP served, a host outside the listener, no HSTS', () => {
    const resources = fresh();
    const crm = spec(get(resources, 'HTTPRoute', 'crm-api'));
    crm.rules[1].backendRefs[0].name = 'crm';
    spec(get(resources, 'HTTPRoute', 'users-api')).rules[1].backendRefs[0].port = 443;
    spec(get(resources, 'HTTPRoute', 'news-api')).parentRefs[0].sectionName = 'http';
    spec(get(resources, 'HTTPRoute', 'articles-api')).hostnames[0] = 'articles.example.org';
    delete spec(get(resources, 'HTTPRoute', 'users-api')).rules[1].filters;
    spec(get(resources, 'HTTPRoute', 'https-redirect')).parentRefs[0].sectionName = 'admin';
    expect(gatewayApiProblems(resources)).toEqual([
      'HTTPRoute/crm-api: backend Service crm does not exist',
      'HTTPRoute/articles-api: host articles.example.org is outside listener https (*.localhost)',
      'HTTPRoute/news-api: serves plain HTTP on listener http instead of redirecting to HTTPS',
      'HTTPRoute/users-api: Service users-api has no port 443',
      'HTTPRoute/users-api: responses from users-api get no Strict-Transport-Security',
      'HTTPRoute/https-redirect: Gateway public has no listener admin; attach to one listener by sectionName',
      'HTTPRoute/https-redirect: attached to no listener',
    ]);
  });

  it('HTTPRoutes whose probe-path rules miss spellings: prefixes only, a case-sensitive or unanchored regex, or sent to an app', () => {
    const resources = fresh();
    const matches = (name: string) => spec(get(resources, 'HTTPRoute', name)).rules[0].matches;
    matches('crm-api').splice(3, 1);
    matches('articles-api')[3].path.value = '^/(healthz|readyz|metrics).*';
    matches('news-api')[3].path.value = '(?i)/(healthz|readyz|metrics)';
    spec(get(resources, 'HTTPRoute', 'users-api')).rules[0].backendRefs[0].name = 'users-api';
    expect(gatewayApiProblems(resources)).toEqual([
      `HTTPRoute/crm-api: no RegularExpression ${PROBE_PATH_REGEX} rule to not-routed`,
      'HTTPRoute/crm-api: routes /readyz#x /readyz\\?x /readyz;x /READYZ /HealthZ/ /metrics;x /metrics\\?x /METRICS /Metrics/ unlike the gateway',
      `HTTPRoute/articles-api: no RegularExpression ${PROBE_PATH_REGEX} rule to not-routed`,
      'HTTPRoute/articles-api: routes /READYZ /HealthZ/ /METRICS /Metrics/ unlike the gateway',
      `HTTPRoute/news-api: no RegularExpression ${PROBE_PATH_REGEX} rule to not-routed`,
      // a full match of the bare names: the case is caught, not what follows them
      'HTTPRoute/news-api: routes /readyz#x /readyz\\?x /readyz;x /HealthZ/ /metrics;x /metrics\\?x /Metrics/ unlike the gateway',
      'HTTPRoute/users-api: responses from users-api get no Strict-Transport-Security',
      'HTTPRoute/users-api: no PathPrefix /healthz rule to not-routed',
      'HTTPRoute/users-api: no PathPrefix /readyz rule to not-routed',
      'HTTPRoute/users-api: no PathPrefix /metrics rule to not-routed',
      `HTTPRoute/users-api: no RegularExpression ${PROBE_PATH_REGEX} rule to not-routed`,
      `HTTPRoute/users-api: routes ${PROBE_PATH_SPELLINGS.join(' ')} unlike the gateway`,
    ]);
  });

  it("a Gateway keeping idle connections to the apps Envoy's default hour, or not merging slashes", () => {
    const resources = fresh();
    delete spec(get(resources, 'BackendTrafficPolicy', 'public')).timeout.http;
    spec(get(resources, 'ClientTrafficPolicy', 'public')).path.disableMergeSlashes = true;
    expect(gatewayKeepAliveProblems(resources)).toEqual([
      'Gateway/public: no BackendTrafficPolicy sets timeout.http.connectionIdleTimeout (Envoy keeps idle connections 1 h)',
      'Gateway/public: no ClientTrafficPolicy with path.escapedSlashesAction UnescapeAndRedirect and disableMergeSlashes false',
    ]);
    spec(get(resources, 'BackendTrafficPolicy', 'public')).timeout.http = { connectionIdleTimeout: '65s' };
    expect(gatewayKeepAliveProblems(resources)[0]).toBe("Gateway/public: connectionIdleTimeout 65 s is not PROXY_KEEPALIVE_MS (60 s), below the apps' keep-alive 65 s");
  });

  it("a database URL aimed at another app's server or database, and a password from elsewhere", () => {
    const resources = fresh();
    const url = app(resources).env!.find((v) => v.name === 'USERS_MONGO_URL')!;
    url.value = 'mongodb://users:$(DB_PASSWORD)@crm-api-mongodb:27017/crm?authSource=users';
    const crm = containersOf(get(resources, 'Deployment', 'crm-api'))[0];
    crm.env!.find((v) => v.name === 'DB_PASSWORD')!.valueFrom!.secretKeyRef!.name = 'users-api';
    expect(databaseProblems(resources, SERVICES)).toEqual([
      'crm-api: DB_PASSWORD does not come from Secret crm-api key DB_PASSWORD',
      "users-api: database URL points at crm-api-mongodb:27017, not its own replica set's members users-api-mongodb-0.users-api-mongodb:27017,users-api-mongodb-1.users-api-mongodb:27017,users-api-mongodb-2.users-api-mongodb:27017",
      'users-api: database URL names database "crm", not "users"',
    ]);
  });

  it('a $(VAR) used before it is defined', () => {
    const resources = fresh();
    const env = app(resources).env!;
    env.push(env.shift()!);
    expect(databaseProblems(resources, SERVICES)).toEqual(['users-api: USERS_MONGO_URL uses $(DB_PASSWORD) before it is defined']);
  });

  it('a network policy that lets another app, or everyone, reach a database', () => {
    const resources = fresh();
    spec(get(resources, 'NetworkPolicy', 'crm-api-mongodb')).ingress[0].from[0].podSelector.matchLabels['app.kubernetes.io/name'] = 'users-api';
    spec(get(resources, 'NetworkPolicy', 'news-api-mongodb')).ingress[0].from = [];
    spec(get(resources, 'NetworkPolicy', 'users-api-mongodb')).ingress[0].from[2].podSelector.matchLabels = { 'app.kubernetes.io/part-of': 'crm-services' };
    expect(networkPolicyProblems(resources, SERVICES)).toEqual([
      'NetworkPolicy/crm-api-mongodb: lets users-api reach crm-api-mongodb',
      'NetworkPolicy/news-api-mongodb: lets every pod reach news-api-mongodb',
      'NetworkPolicy/users-api-mongodb: lets crm-api, crm-api-mongodb, crm-api-mongodb-bootstrap, crm-api-mongodb-backup, articles-api, articles-api-mongodb, articles-api-mongodb-bootstrap, articles-api-mongodb-backup, news-api, news-api-mongodb, news-api-mongodb-bootstrap, news-api-mongodb-backup reach users-api-mongodb',
    ]);
    resources.splice(resources.indexOf(get(resources, 'NetworkPolicy', 'users-api-mongodb')), 1);
    resources.splice(resources.indexOf(get(resources, 'NetworkPolicy', 'default-deny')), 1);
    expect(networkPolicyProblems(resources, SERVICES)).toContain('users-api: no NetworkPolicy guards users-api-mongodb');
  });
});
