import { readFileSync } from 'node:fs';
import { SERVICES, SERVICE_HEAP_FLAGS, SERVICE_NODE_FLAGS, SERVICE_V8_FLAGS } from '@lib/services';
import ConnectionString from 'mongodb-connection-string-url';
import { readDockerfile, stageEnv } from './dockerfile';
import { MONGO_VERSION } from './database-checks';
import { imageTag } from './kustomize';
import { renderOverlay } from './manifests';
import { containersOf } from './pod';
import { find } from './resource';
import { appProjectExists, fromRoot, readYaml } from './workspace';

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  environment?: Record<string, unknown>;
  volumes?: string[];
  ports?: string[];
  read_only?: boolean;
}
interface Compose {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

describe('docker/Dockerfile', () => {
  const { args, stages } = readDockerfile(fromRoot('docker/Dockerfile'));
  const [build, runtime] = stages;
  const runs = (stage: typeof build) => stage.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);

  it('builds from one pinned Node image in two stages', () => {
    expect(args.NODE_IMAGE).toMatch(/^node:\d+\.\d+\.\d+-[a-z0-9.-]+$/);
    expect(stages.map((s) => s.from)).toEqual(['${NODE_IMAGE}', '${NODE_IMAGE}']);
    expect(build.name).toBe('build');
  });

  it('builds the chosen service with Nx after npm ci in the build stage', () => {
    expect(build.instructions).toContainEqual({ keyword: 'ARG', args: 'APP' });
    const commands = runs(build).join(' && ');
    expect(commands.indexOf('npm ci')).toBeGreaterThanOrEqual(0);
    expect(commands.indexOf('npx nx build "$APP"')).toBeGreaterThan(commands.indexOf('npm ci'));
    expect(commands).toContain('cp -R dist/*/"$APP"/. /out/');
  });

  it('ships only production dependencies and the build output, never the embedded database', () => {
    const copies = runtime.instructions.filter((i) => i.keyword === 'COPY').map((i) => i.args);
    expect(copies).toEqual(['--from=build /out/package.json /out/package-lock.json ./', '--from=build /out/ ./']);
    const install = runs(runtime).join(' && ');
    expect(install).toContain('npm ci --omit=dev --omit=optional --ignore-scripts');
    expect(install).toContain('test ! -e node_modules/@jongodb');
  });

  it('runs as a non-root user on PORT 3000 with a health check', () => {
    const last = (keyword: string) => runtime.instructions.filter((i) => i.keyword === keyword).at(-1)?.args;
    expect(last('USER')).toBe('1000:1000');
    expect(last('ENV')).toMatch(/\bPORT=3000\b/);
    // a container listens on every interface (outside one the processes default to loopback)
    expect(stageEnv(runtime).BIND_ADDRESS).toBe('0.0.0.0');
    expect(last('EXPOSE')).toBe('3000');
    expect(last('HEALTHCHECK')).toMatch(/CMD \["node", "-e", ".*\/healthz/);
    expect(last('CMD')).toBe(JSON.stringify(['node', '--enable-source-maps', ...SERVICE_V8_FLAGS, 'main.js']).replace(/","/g, '", "'));
  });

  it('runs node with the flags npm start and the benchmark use (libs/services SERVICE_NODE_FLAGS): the heap limits as NODE_OPTIONS a deployment can override, the V8 tuning on the command line', () => {
    expect(stageEnv(runtime).NODE_OPTIONS).toBe(SERVICE_HEAP_FLAGS.join(' '));
    expect([...SERVICE_HEAP_FLAGS, ...SERVICE_V8_FLAGS]).toEqual(SERVICE_NODE_FLAGS);
    expect(stageEnv(build).NODE_OPTIONS).toBeUndefined();
  });

  it.each(SERVICES.filter((s) => appProjectExists(s.name)).map((s) => s.name))('finds %s where nx build puts it, with a package.json and lock', (name) => {
    const project = JSON.parse(readFileSync(fromRoot('apps', name, 'project.json'), 'utf8'));
    expect(project.targets.build.options).toMatchObject({ outputPath: `dist/apps/${name}`, generatePackageJson: true, main: `apps/${name}/src/main.ts` });
  });

  it('leaves the workspace build output and installs out of the build context', () => {
    const ignored = readFileSync(fromRoot('.dockerignore'), 'utf8').split('\n');
    for (const entry of ['**/node_modules', 'dist', '.nx', '**/.env']) expect(ignored).toContain(entry);
  });
});

describe('docker/compose.yaml', () => {
  const compose = readYaml<Compose>(fromRoot('docker/compose.yaml'));
  const k8s = renderOverlay('prod');

  it('runs every service of the table, MongoDB and the gateway', () => {
    expect(Object.keys(compose.services).sort()).toEqual([...SERVICES.map((s) => s.name), 'gateway', 'mongodb'].sort());
  });

  it('runs the MongoDB of the Kubernetes replica sets (pinned) on a named volume, creating a user per app database', () => {
    const mongodb = compose.services.mongodb;
    expect(mongodb.image).toBe(containersOf(find(k8s, 'StatefulSet', 'crm-api-mongodb')!)[0].image);
    expect(imageTag(mongodb.image!)).toMatch(MONGO_VERSION);
    const [volume] = (mongodb.volumes ?? []).filter((v) => v.endsWith(':/data/db'));
    expect(Object.keys(compose.volumes ?? {})).toContain(volume.split(':')[0]);
    expect(mongodb.volumes).toContain('../k8s/base/mongodb/create-app-users.js:/docker-entrypoint-initdb.d/create-app-users.js:ro');
    expect(String(mongodb.environment?.APP_DATABASES).split(' ').sort()).toEqual(SERVICES.map((s) => s.database).sort());
    for (const { database } of SERVICES) expect(mongodb.environment).toHaveProperty(`${database.toUpperCase()}_DB_PASSWORD`);
  });

  it("runs MongoDB as a single-member replica set (crm-api's webhook events are written in transactions), initiated by its health check", () => {
    const mongodb = compose.services.mongodb as ComposeService & { entrypoint?: string[]; healthcheck?: { test?: string[] } };
    const start = (mongodb.entrypoint ?? []).join(' ');
    expect(start).toMatch(/exec docker-entrypoint\.sh mongod --replSet rs0 --bind_ip_all --keyFile \/tmp\/replica-set\.key/);
    expect(start).toContain('chmod 400 /tmp/replica-set.key');
    const check = (mongodb.healthcheck?.test ?? []).join(' ');
    expect(check).toContain("rs.initiate({ _id: 'rs0', members: [{ _id: 0, host: 'mongodb:27017' }] })");
    expect(check).toContain('db.hello().isWritablePrimary');
    // the apps reach it by the member's name, which is how the set knows itself
    for (const { name } of SERVICES) expect(String(Object.values(compose.services[name].environment ?? {}).find((v) => String(v).startsWith('mongodb://')))).toContain('@mongodb:27017/');
  });

  it.each(SERVICES)('builds $name from the Dockerfile with string env values, its own database and the settings Kubernetes gives it', (service) => {
    const app = compose.services[service.name];
    expect(app.build).toEqual({ context: '..', dockerfile: 'docker/Dockerfile', args: { APP: service.name } });
    expect(imageTag(app.image!)).toMatch(/^\d+\.\d+\.\d+$/);
    expect(app.read_only).toBe(true);
    const env = app.environment ?? {};
    for (const [key, value] of Object.entries(env)) expect([key, typeof value]).toEqual([key, 'string']);
    expect(env.PORT).toBe('3000');
    expect(env.NODE_ENV).toBe('production');
    expect([env.BIND_ADDRESS, env.TRUST_PROXY]).toEqual(['0.0.0.0', '1']);

    const url = new ConnectionString(String(env[`${service.envPrefix}_MONGO_URL`]));
    expect({ hosts: url.hosts, path: url.pathname, user: url.username, authSource: url.searchParams.get('authSource') }).toEqual({
      hosts: ['mongodb:27017'],
      path: `/${service.database}`,
      user: service.database,
      authSource: service.database,
    });
    expect(decodeURIComponent(url.password)).toBe(`\${${service.database.toUpperCase()}_DB_PASSWORD}`);

    // The same variables as in Kubernetes, where the database password arrives apart from the URL.
    const container = containersOf(find(k8s, 'Deployment', service.name)!)[0];
    const configMap = find(k8s, 'ConfigMap', `${service.name}-config`)!;
    const k8sNames = [...Object.keys(configMap.data as object), ...(container.env ?? []).map((v) => v.name)].filter((n) => !['DB_PASSWORD', 'SHUTDOWN_TIMEOUT_MS'].includes(n));
    expect(Object.keys(env).sort()).toEqual([...new Set(k8sNames)].sort());
  });

  it('puts the gateway in front, sending each host to its service container', () => {
    const gateway = compose.services.gateway;
    expect(gateway.build?.args).toEqual({ APP: 'gateway' });
    expect(gateway.environment?.GATEWAY_PORT).toBe('3000');
    expect(gateway.environment?.BIND_ADDRESS).toBe('0.0.0.0');
    expect(gateway.ports).toEqual(['${GATEWAY_PUBLISH_PORT:-8080}:3000']);
    const template = String(gateway.environment?.GATEWAY_TARGET);
    for (const { name } of SERVICES) {
      const target = new URL(template.replaceAll('{name}', name));
      expect(compose.services[target.hostname]).toBeDefined();
      expect(target.port).toBe('3000');
    }
  });
});
