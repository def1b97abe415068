import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { freePort, GATEWAY, SERVICES } from '@lib/services';
import { sampleFeed } from './sample-feed';

export interface Stack {
  /** Each default port (libs/services/src/service-table.ts: 3001…3004, 8080) → the free port used instead. */
  ports: Map<number, number>;
  /** The embedded database's URL, for commands that reach it directly (`npm run crm:admin`). */
  mongoUrl: string;
  /** The dev runner's output so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Variables of the caller's environment that would make the stack something else than `npm start` on
 * fresh data, or a README command something else than in a user's shell: `npm test` runs Nx with
 * `--skip-nx-cache`, which Nx hands to its tasks as NX_SKIP_NX_CACHE, and every `npm run crm:admin`
 * would then rebuild crm-api instead of finding its build (about 35 s each on a loaded machine).
 */
const NOT_INHERITED = /^(?:NODE_ENV|TEST_MONGO_URL|(?:\w+_)?MONGO_URL|\w+_PORT|GATEWAY_\w+|NEWS_FEEDS|FEED_ALLOWED_HOSTS|JEST_\w+|NX_SKIP_NX_CACHE)$/;

export function cleanEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !NOT_INHERITED.test(name)));
}

/**
 * Plays the shipped publishers (same ids and names, so the READMEs' `source=abc-news` works) on a
 * loopback port: ABC News serves the sample feed, the others an empty one. No network is needed.
 */
async function startFeedServer(root: string): Promise<{ server: Server; publishers: unknown[] }> {
  const shipped = JSON.parse(readFileSync(path.join(root, 'apps', 'news-api', 'src', 'feeds', 'default-feeds.json'), 'utf8')) as {
    publishers: { id: string; name: string }[];
  };
  const server = createServer((req, res) => {
    const id = /^\/([a-z0-9-]+)\.xml$/.exec(req.url ?? '')?.[1];
    if (!id || !shipped.publishers.some((publisher) => publisher.id === id)) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'application/rss+xml' }).end(sampleFeed(new Date(), id === 'abc-news'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, publishers: shipped.publishers.map(({ id, name }) => ({ id, name, feeds: [`${base}/${id}.xml`] })) };
}

/**
 * What `npm start` runs once it has built: the dev runner, on a fresh embedded database, with every
 * port moved to a free one (the port variables of README.md's service table) and the news feeds served locally. Its
 * working directory is `workDir`, so its `.data/` file does not replace that of an `npm start`
 * running in the repository.
 */
export async function startStack(root: string, workDir: string, timeoutMs: number): Promise<Stack> {
  const runner = path.join(root, 'dist', 'tools', 'dev-runner', 'main.js');
  const builds = [runner, path.join(root, 'dist', 'tools', 'gateway', 'main.js'), ...SERVICES.map((s) => path.join(root, 'dist', 'apps', s.name, 'main.js'))];
  const missing = builds.filter((file) => !existsSync(file));
  if (missing.length) throw new Error(`not built: ${missing.join(', ')}; build first (npx nx run-many -t build)`);
  const ports = new Map<number, number>();
  const env: NodeJS.ProcessEnv = cleanEnv(process.env);
  for (const entry of [...SERVICES, GATEWAY]) {
    const port = await freePort();
    ports.set(entry.defaultPort, port);
    env[entry.portEnv] = String(port);
  }
  const feeds = await startFeedServer(root);
  const feedsFile = path.join(workDir, 'feeds.json');
  writeFileSync(feedsFile, JSON.stringify({ publishers: feeds.publishers }));
  env.NEWS_FEEDS = feedsFile;
  env.FEED_ALLOWED_HOSTS = '127.0.0.1'; // the local feed server: loopback, refused by the outbound guard unless allow-listed

  let output = '';
  const child = spawn(process.execPath, [runner], { cwd: workDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-200_000);
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let gone = false;
  void exited.then(() => (gone = true));

  const stop = async () => {
    if (!gone) child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(killer);
    await new Promise((resolve) => feeds.server.close(resolve));
  };

  const deadline = Date.now() + timeoutMs;
  while (!output.includes('press Ctrl-C to stop')) {
    if (gone || Date.now() > deadline) {
      await stop();
      throw new Error(`the dev runner did not get ready${gone ? '' : ` within ${timeoutMs} ms`}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const mongoUrl = readFileSync(path.join(workDir, '.data', 'embedded-mongo.url'), 'utf8').trim();
  return { ports, mongoUrl, output: () => output, stop };
}

/** The command with every `localhost:<default port>` (and `127.0.0.1:…`, `<name>.localhost:…`) moved to the stack's port. */
export function withPorts(command: string, ports: Map<number, number>): string {
  return command.replace(/\b(localhost|127\.0\.0\.1):(\d{2,5})\b/g, (whole, host: string, port: string) => {
    const moved = ports.get(Number(port));
    return moved ? `${host}:${moved}` : whole;
  });
}
