import { freePort } from '@lib/services';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { SERVICE_NODE_FLAGS, type ServiceEntry } from '@lib/services';
import { getOnFreshConnection } from '@lib/testing';
import { build as esbuild } from 'esbuild';
import { startDevEnvironment, type DevEnvironment } from './dev-environment';
import { EMBEDDED_LIMITS } from './embedded-limits';
import type { RestartPolicy } from './restart-backoff';

// Stand-ins for the built apps and gateway: same env contract (PORT, MONGO_URL, SIGTERM drains).
const STUB_APP = `
const http = require('node:http');
const name = require('node:path').basename(__dirname);
if ((process.env.STUB_CRASH_AT_START || '').includes(name)) { console.error(name + ' cannot start'); process.exit(2); }
const server = http.createServer((req, res) => {
  if (req.url === '/readyz') return res.writeHead((process.env.STUB_NOT_READY || '').includes(name) ? 503 : 200).end();
  if (req.url === '/crash') { console.error(name + ' crashing'); process.exit(3); }
  if (req.url === '/pid') return res.end(String(process.pid));
  res.end(JSON.stringify({ name, port: process.env.PORT, mongoUrl: process.env.MONGO_URL, trustProxy: process.env.TRUST_PROXY, execArgv: process.execArgv }));
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log(name + ' listening'));
process.on('SIGTERM', () => { console.log(name + ' draining'); server.close(() => process.exit(0)); });
`;
const STUB_GATEWAY = `
const server = require('node:http').createServer((req, res) => res.writeHead(421).end());
server.listen(Number(process.env.GATEWAY_PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

const row = (name: string, subdomain: string): ServiceEntry => ({
  name,
  subdomain,
  defaultPort: 1,
  portEnv: `${subdomain.toUpperCase()}_PORT`,
  envPrefix: subdomain.toUpperCase(),
  database: subdomain,
});
const services = [row('alpha-api', 'alpha'), row('beta-api', 'beta')];


function fetchText(port: number, urlPath: string, host?: string): Promise<string> {
  return fetchReply(port, urlPath, host).then((reply) => reply.body);
}

const fetchReply = (port: number, urlPath: string, host?: string) => getOnFreshConnection(port, urlPath, host ? { Host: host } : {});

const refused = (port: number) => fetchText(port, '/').then(() => false, (err: NodeJS.ErrnoException) => err.code === 'ECONNREFUSED');

let root: string;
let ports: { alpha: number; beta: number; gateway: number };
let env: NodeJS.ProcessEnv;
let running: DevEnvironment | undefined;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'dev-runner-'));
  ports = { alpha: await freePort(), beta: await freePort(), gateway: await freePort() };
  env = { PATH: process.env.PATH, ALPHA_PORT: String(ports.alpha), BETA_PORT: String(ports.beta), GATEWAY_PORT: String(ports.gateway) };
});

afterEach(async () => {
  if (running) {
    running.stop();
    await running.finished;
    running = undefined;
  }
  await rm(root, { recursive: true, force: true });
});

async function build(...names: string[]): Promise<void> {
  for (const name of names) {
    const dir = name === 'gateway' ? path.join(root, 'dist/tools/gateway') : path.join(root, 'dist/apps', name);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'main.js'), name === 'gateway' ? STUB_GATEWAY : STUB_APP);
    if (name !== 'gateway') {
      await mkdir(path.join(root, 'apps', name), { recursive: true });
      await writeFile(path.join(root, 'apps', name, 'project.json'), '{}');
    }
  }
}

function start(options: { readyTimeoutMs?: number; restartPolicy?: RestartPolicy; services?: ServiceEntry[] } = {}) {
  const lines: string[] = [];
  const waiters: { text: string; resolve(): void }[] = [];
  const record = (line: string) => {
    lines.push(line);
    waiters.filter((w) => line.includes(w.text)).forEach((w) => w.resolve());
  };
  const embedded = { starts: 0, stops: 0 };
  running = startDevEnvironment({
    root,
    env,
    services: options.services ?? services,
    restartPolicy: options.restartPolicy,
    graceMs: 2_000,
    readyTimeoutMs: options.readyTimeoutMs ?? 10_000,
    startEmbedded: async () => {
      embedded.starts += 1;
      return { uri: 'mongodb://127.0.0.1:27999/', stop: async () => void (embedded.stops += 1) };
    },
    output: {
      info: (line) => record(`info ${line}`),
      summary: (summary) => summary.forEach((line) => record(`summary ${line}`)),
      error: (line) => record(`error ${line}`),
      child: (name, stream, line) => record(`${name} ${stream} ${line}`),
    },
  });
  const printed = (text: string) =>
    new Promise<void>((resolve) => {
      if (lines.some((line) => line.includes(text))) return resolve();
      waiters.push({ text, resolve });
    });
  return { env: running, lines, embedded, printed };
}

describe('startDevEnvironment', () => {
  it('starts the apps on the embedded database, then the gateway, prints the URLs and stops cleanly', async () => {
    await build('alpha-api', 'beta-api', 'gateway');
    const { env: dev, lines, embedded, printed } = start();
    await printed('press Ctrl-C to stop');

    expect(embedded.starts).toBe(1);
    expect(lines).toContain('info database: alpha-api, beta-api use the embedded in-memory server at mongodb://127.0.0.1:27999/ (data is lost at exit; set MONGO_URL for a real MongoDB)');
    // the embedded lane's measured limits, and the one command for a real MongoDB
    expect(lines).toEqual(expect.arrayContaining(EMBEDDED_LIMITS.map((line) => `info ${line}`)));
    expect(lines).toContain(`info API docs: http://alpha.localhost:${ports.gateway}/docs  http://beta.localhost:${ports.gateway}/docs`);
    expect(lines).toEqual(
      expect.arrayContaining([
        'alpha-api stdout alpha-api listening',
        `summary alpha-api  http://localhost:${ports.alpha}  http://alpha.localhost:${ports.gateway}`,
        `summary beta-api   http://localhost:${ports.beta}  http://beta.localhost:${ports.gateway}`,
        `summary gateway    http://localhost:${ports.gateway}`,
      ]),
    );
    expect(JSON.parse(await fetchText(ports.beta, '/'))).toEqual({
      name: 'beta-api',
      port: String(ports.beta),
      mongoUrl: 'mongodb://127.0.0.1:27999/',
      // the apps believe X-Forwarded-For from the local gateway only
      trustProxy: 'loopback',
      // the production image's Node flags (its NODE_OPTIONS and command)
      execArgv: ['--enable-source-maps', ...SERVICE_NODE_FLAGS],
    });
    expect(await fetchText(ports.gateway, '/')).toBe('');

    // Under npm a Ctrl-C arrives twice; the second must not change anything.
    dev.stop();
    dev.stop();
    expect(await dev.finished).toBe(0);
    running = undefined;
    expect(lines).toEqual(expect.arrayContaining(['alpha-api stdout alpha-api draining', 'beta-api stdout beta-api draining', 'info stopped']));
    expect(lines.filter((line) => line.startsWith('info stopping'))).toEqual(['info stopping alpha-api, beta-api, gateway']);
    expect(lines.filter((line) => line.startsWith('error'))).toEqual([]);
    expect(embedded.stops).toBe(1);
    expect(await Promise.all([refused(ports.alpha), refused(ports.beta), refused(ports.gateway)])).toEqual([true, true, true]);
  });

  it('uses MONGO_URL when set and starts no embedded server', async () => {
    await build('alpha-api', 'beta-api');
    env.MONGO_URL = 'mongodb://db.example:27017/';
    const { lines, embedded, printed } = start();
    await printed('press Ctrl-C to stop');
    expect(embedded.starts).toBe(0);
    expect(lines).toContain('info database: alpha-api, beta-api use MONGO_URL (mongodb://db.example:27017/)');
    expect(lines.filter((line) => /slows down|real MongoDB \(7/.test(line))).toEqual([]);
    expect(JSON.parse(await fetchText(ports.alpha, '/')).mongoUrl).toBe('mongodb://db.example:27017/');
    expect(lines.some((line) => line.includes('the gateway is not built'))).toBe(true);
  });

  it('stops everything with exit code 1 when an app dies while starting', async () => {
    await build('alpha-api', 'beta-api', 'gateway');
    env.STUB_CRASH_AT_START = 'alpha-api';
    const { env: dev, lines, embedded } = start();

    expect(await dev.finished).toBe(1);
    running = undefined;
    const crash = lines.indexOf('alpha-api stderr alpha-api cannot start');
    const report = lines.indexOf('error alpha-api exited with code 2; stopping everything');
    expect(crash).toBeGreaterThanOrEqual(0);
    expect(report).toBeGreaterThan(crash);
    expect(lines.some((line) => line.includes('press Ctrl-C'))).toBe(false);
    expect(embedded.stops).toBe(1);
    expect(await refused(ports.beta)).toBe(true);
  });

  it('stops everything with exit code 1 when an app does not get ready in time', async () => {
    await build('alpha-api', 'beta-api', 'gateway');
    env.STUB_NOT_READY = 'beta-api';
    // long enough for the stub to start listening on a loaded machine, so its last answer is its 503
    const { env: dev, lines } = start({ readyTimeoutMs: 4_000 });

    expect(await dev.finished).toBe(1);
    running = undefined;
    expect(lines).toContain(`error beta-api did not get ready: http://127.0.0.1:${ports.beta}/readyz was not ready within 4 s (last answer: HTTP 503)`);
    expect(lines.some((line) => line.includes('press Ctrl-C'))).toBe(false);
    expect(lines.some((line) => line.startsWith('gateway'))).toBe(false);
    expect(await refused(ports.alpha)).toBe(true);
  });

  it('fails with a clear message when nothing is built', async () => {
    const { env: dev, lines, embedded } = start();
    expect(await dev.finished).toBe(1);
    running = undefined;
    expect(lines).toEqual(['error no app is built: run npx nx run-many -t build']);
    expect(embedded.starts).toBe(0);
  });
});

describe('startDevEnvironment supervision', () => {
  // The real gateway, bundled as nx builds it, in front of two stub apps named like real services.
  const articles = row('articles-api', 'articles');
  const users = row('users-api', 'users');

  beforeEach(async () => {
    await build('articles-api', 'users-api');
    await esbuild({
      entryPoints: [path.join(__dirname, '../../gateway/src/main.ts')],
      outfile: path.join(root, 'dist/tools/gateway/main.js'),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node22',
      packages: 'external',
      tsconfig: path.join(__dirname, '../../gateway/tsconfig.json'),
      logLevel: 'silent',
    });
    env = {
      PATH: process.env.PATH,
      NODE_PATH: path.join(__dirname, '../../../node_modules'),
      ARTICLES_PORT: String(ports.alpha),
      USERS_PORT: String(ports.beta),
      GATEWAY_PORT: String(ports.gateway),
    };
  });

  it('restarts an app that dies, with a growing back-off, while the other app and the gateway keep answering', async () => {
    const { env: dev, lines, printed } = start({ services: [articles, users], restartPolicy: { initialDelayMs: 300, maxDelayMs: 5_000, resetAfterMs: 60_000 } });
    await printed('press Ctrl-C to stop');
    const viaGateway = (host: string) => fetchReply(ports.gateway, '/', host);
    expect((await viaGateway('articles.localhost')).status).toBe(200);
    // the real gateway listens on both loopback addresses and on no other
    expect((await statusFrom('::1', ports.gateway, 'users.localhost'))).toBe(200);
    for (const address of outsideAddresses()) await expect(statusFrom(address, ports.gateway, 'users.localhost')).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    const firstPid = Number(await fetchText(ports.alpha, '/pid'));
    process.kill(firstPid, 'SIGKILL');
    await printed('error articles-api was killed by SIGKILL; restarting it in 0.3 s (restart 1 in a row)');
    // while it is down, the other app answers, directly and through the gateway
    expect(JSON.parse(await fetchText(ports.beta, '/')).name).toBe('users-api');
    expect(JSON.parse((await viaGateway('users.localhost')).body).name).toBe('users-api');

    await printed('info articles-api is ready again');
    const secondPid = Number(await fetchText(ports.alpha, '/pid'));
    expect(secondPid).not.toBe(firstPid);
    expect((await viaGateway('articles.localhost')).status).toBe(200);

    // dying again soon after: the wait doubles
    await fetchText(ports.alpha, '/crash').catch(() => undefined);
    await printed('error articles-api exited with code 3; restarting it in 0.6 s (restart 2 in a row)');
    await waitFor(() => lines.filter((line) => line === 'info articles-api is ready again').length === 2);
    expect(JSON.parse((await viaGateway('articles.localhost')).body).name).toBe('articles-api');
    expect(JSON.parse((await viaGateway('users.localhost')).body).name).toBe('users-api');

    // nothing else was stopped, and the runner still stops cleanly
    expect(lines.some((line) => line.includes('stopping everything'))).toBe(false);
    expect(lines.filter((line) => line.startsWith('users-api') && line.includes('draining'))).toEqual([]);
    dev.stop();
    expect(await dev.finished).toBe(0);
    running = undefined;
    expect(await Promise.all([refused(ports.alpha), refused(ports.beta), refused(ports.gateway)])).toEqual([true, true, true]);
  }, 60_000);
});

/** This machine's addresses that are not loopback (a LAN peer could connect to them). */
const outsideAddresses = () =>
  Object.values(networkInterfaces())
    .flat()
    .filter((i) => i && !i.internal && !i.address.startsWith('fe80:'))
    .map((i) => i!.address);

/** The status of GET / with `host` from `address`:`port`, on a fresh connection. */
const statusFrom = (address: string, port: number, host: string) =>
  new Promise<number>((resolve, reject) => {
    http
      .get({ host: address, port, path: '/', headers: { Host: host }, agent: false, timeout: 5_000 }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', reject);
  });

async function waitFor(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
