import { freePort } from '@lib/services';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { connectMongo } from '@lib/mongo';
import { getOnFreshConnection } from '@lib/testing';
import ConnectionString from 'mongodb-connection-string-url';
import { bundleApp } from './bundle';
import { fromRoot } from './workspace';

// The behaviour the Deployment's preStop, readiness probe and grace period rely on, on a real app
// process (articles-api, bundled like nx build does): SIGTERM while requests are in flight.
// Generous, so a busy machine still shows the not-ready window.
const READINESS_DELAY_MS = 2_000;
const DRAIN_LIMIT_MS = 8_000;


const get = getOnFreshConnection;

/** A POST /articles whose body arrives in two parts: in flight until finish() sends the rest. */
async function startPost(port: number, title: string) {
  const body = JSON.stringify({ title, content: `body of ${title}` });
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let response = '';
  socket.on('data', (chunk) => (response += chunk));
  const ended = once(socket, 'end');
  const half = Math.floor(body.length / 2);
  socket.write(`POST /articles HTTP/1.1\r\nHost: articles\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, half)}`);
  return {
    async finish() {
      socket.write(body.slice(half));
      await ended;
      const [head, payload] = response.split('\r\n\r\n');
      return { status: Number(head.split(' ')[1]), body: JSON.parse(payload) as { data: { title: string } } };
    },
  };
}

describe('graceful shutdown of a running app', () => {
  let dir: string;
  let child: ChildProcess | undefined;
  let port: number;
  let dbName: string;
  let output = '';

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'deploy-shutdown-'));
    const { main } = await bundleApp('articles-api', dir);
    dbName = `shutdown_${randomBytes(4).toString('hex')}`;
    const url = new ConnectionString(process.env.TEST_MONGO_URL!);
    url.pathname = `/${dbName}`;
    // A free port can be taken by another process before the app binds it: try another one.
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      output = '';
      child = spawn(process.execPath, [main], {
        env: {
          PATH: process.env.PATH,
          NODE_PATH: fromRoot('node_modules'),
          NODE_ENV: 'production',
          PORT: String(port),
          LOG_LEVEL: 'info',
          ARTICLES_MONGO_URL: url.toString(),
          SHUTDOWN_DELAY_MS: String(READINESS_DELAY_MS),
          SHUTDOWN_TIMEOUT_MS: String(DRAIN_LIMIT_MS),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (chunk) => (output += chunk));
      child.stderr!.on('data', (chunk) => (output += chunk));
      try {
        await waitForOutput('"msg":"started"'); // listening, and the database reached (readiness can be 200)
        return;
      } catch (err) {
        if (attempt >= 3 || !output.includes('EADDRINUSE')) throw err;
      }
    }
  });

  async function waitForOutput(text: string): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (!output.includes(text)) {
      if (Date.now() > deadline || child?.exitCode !== null) throw new Error(`articles-api never printed ${text}:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  it('turns /readyz 503 first, then refuses new connections, finishes every in-flight request and exits 0', async () => {
    expect(await get(port, '/readyz')).toEqual({ status: 200, body: '{"status":"ready"}' });
    const inFlight = await Promise.all(['first', 'second', 'third'].map((title) => startPost(port, title)));
    const exited = once(child!, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;

    const signalledAt = Date.now();
    child!.kill('SIGTERM');

    // The signal arrives asynchronously: wait until the app says it took it.
    await waitForOutput('shutting down: not ready');
    // Still accepting, but no longer ready: the load balancer stops sending first.
    expect(await get(port, '/readyz')).toEqual({ status: 503, body: '{"status":"shutting_down"}' });
    expect((await get(port, '/articles')).status).toBe(200);
    const notReadyAt = Date.now();

    // Then the port closes, while the three requests are still open.
    let refusedAt = 0;
    while (!refusedAt) {
      const refused = await get(port, '/healthz').then(
        () => false,
        (err: NodeJS.ErrnoException) => err.code === 'ECONNREFUSED',
      );
      if (refused) refusedAt = Date.now();
      else await new Promise((resolve) => setTimeout(resolve, 25));
      expect(Date.now() - signalledAt).toBeLessThan(DRAIN_LIMIT_MS);
    }
    expect(refusedAt).toBeGreaterThan(notReadyAt);
    expect(refusedAt - signalledAt).toBeGreaterThanOrEqual(READINESS_DELAY_MS - 50);
    expect(child!.exitCode).toBeNull();

    const answers = await Promise.all(inFlight.map((request) => request.finish()));
    expect(answers.map((a) => [a.status, a.body.data.title])).toEqual([
      [201, 'first'],
      [201, 'second'],
      [201, 'third'],
    ]);

    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalledAt).toBeLessThan(READINESS_DELAY_MS + DRAIN_LIMIT_MS);
    expect(output).toContain('"msg":"shut down"');

    // What they wrote is stored.
    const connection = await connectMongo({ url: process.env.TEST_MONGO_URL!, dbName });
    try {
      const titles = (await connection.collection('articles').find().toArray()).map((a) => a.title).sort();
      expect(titles).toEqual(['first', 'second', 'third']);
    } finally {
      await connection.close();
    }
  });
});
