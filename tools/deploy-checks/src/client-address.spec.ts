import { freePort } from '@lib/services';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import ConnectionString from 'mongodb-connection-string-url';
import { bundleProject } from './bundle';
import { fromRoot } from './workspace';

// news-api and the gateway as `npm start` runs them (bundled like nx build), one behind the other:
// the sign-in limiter must count a client by the address the gateway saw, whatever X-Forwarded-For
// the client sends (the gateway replaces it; the app trusts the gateway's address, as npm start's
// TRUST_PROXY=loopback does), and a peer that is not the gateway by its own address (its
// X-Forwarded-For is not believed).
jest.setTimeout(60_000);


interface Started {
  child: ChildProcess;
  output: () => string;
}

/** Starts `main` and waits for its log line `ready` (an app logs "started" once its database is reached; the gateway "listening"). */
async function start(main: string, env: NodeJS.ProcessEnv, ready: string): Promise<Started> {
  let output = '';
  const child = spawn(process.execPath, [main], { env: { PATH: process.env.PATH, NODE_PATH: fromRoot('node_modules'), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 30_000;
  while (!output.includes(`"msg":"${ready}"`)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${main} did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { child, output: () => output };
}

describe('the client address behind the gateway', () => {
  let dir: string;
  const children: ChildProcess[] = [];
  let gatewayPort: number;
  let newsPort: number;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'deploy-client-address-'));
    const [news, gateway] = await Promise.all([bundleProject('apps/news-api', path.join(dir, 'news')), bundleProject('tools/gateway', path.join(dir, 'gateway'))]);
    const url = new ConnectionString(process.env.TEST_MONGO_URL!);
    url.pathname = `/client_address_${randomBytes(4).toString('hex')}`;
    const port = await freePort();
    gatewayPort = await freePort();
        newsPort = port;
    // the gateway connects from 127.0.0.1: the one trusted proxy; 127.0.0.3 plays a LAN peer
    const env = { PORT: String(newsPort), TRUST_PROXY: '127.0.0.1', NEWS_MONGO_URL: url.toString(), NEWS_SYNC_INTERVAL: '0', LOG_LEVEL: 'info' };
    const app = await start(news.main, env, 'started');
    children.push(app.child);
    children.push((await start(gateway.main, { GATEWAY_PORT: String(gatewayPort), NEWS_PORT: String(newsPort) }, 'listening')).child);
  });

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  /** A failed sign-in through the gateway (or `to` another address and port), from `localAddress`, with the X-Forwarded-For a client chose. */
  const failedSignIn = (forwardedFor: string | undefined, localAddress = '127.0.0.1', to?: { host: string; port: number }) =>
    new Promise<{ status: number; retryAfter?: string; body: string }>((resolve, reject) => {
      const body = 'access_token=news-api-development-master-key';
      const headers: http.OutgoingHttpHeaders = {
        Host: 'news.localhost',
        Authorization: `Basic ${Buffer.from('nobody@example.com:wrong-password-1').toString('base64')}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        'Content-Length': Buffer.byteLength(body),
      };
      if (forwardedFor !== undefined) headers['X-Forwarded-For'] = forwardedFor;
      const req = http.request({ host: to?.host ?? '127.0.0.1', port: to?.port ?? gatewayPort, localAddress, method: 'POST', path: '/auth', headers, agent: false }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined, body: text }));
      });
      req.on('error', reject);
      req.end(body);
    });

  it('a spoofed X-Forwarded-For does not move a client to another bucket of the sign-in limiter', async () => {
    // 10 refused attempts (the limit), each claiming another address: all count for 127.0.0.1
    for (let i = 1; i <= 10; i++) {
      const res = await failedSignIn(`198.51.100.${i}`);
      expect([i, res.status]).toEqual([i, 401]);
    }
    for (const spoofed of ['203.0.113.77', '203.0.113.77, 10.0.0.9', '127.0.0.2', undefined]) {
      const res = await failedSignIn(spoofed);
      expect([spoofed, res.status, JSON.parse(res.body).error.code]).toEqual([spoofed, 429, 'too_many_requests']);
      expect(Number(res.retryAfter)).toBeGreaterThan(0);
    }
    // A client really at another address has its own bucket, whatever it claims.
    const other = await failedSignIn('198.51.100.1', '127.0.0.2');
    expect(other.status).toBe(401);
  });

  it('a peer that is not a trusted proxy is counted by its own address, whatever X-Forwarded-For it sends', async () => {
    // straight to the app from 127.0.0.3, which is not the gateway's address
    const direct = { host: '127.0.0.1', port: newsPort };
    for (let i = 1; i <= 10; i++) {
      const res = await failedSignIn(`198.51.100.${100 + i}`, '127.0.0.3', direct);
      expect([i, res.status]).toEqual([i, 401]);
    }
    const res = await failedSignIn('198.51.100.200', '127.0.0.3', direct);
    expect([res.status, JSON.parse(res.body).error.code]).toEqual([429, 'too_many_requests']);
  });
});
