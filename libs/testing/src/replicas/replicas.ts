import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import ConnectionString from 'mongodb-connection-string-url';
import supertest from 'supertest';
import { freePort } from '@lib/services';
import { bundleEntry } from './bundle';

export interface ReplicaOptions {
  /** The app's entry file, e.g. `apps/crm-api/src/main.ts` (relative to the repository root). */
  entry: string;
  /** Server every replica uses; TEST_MONGO_URL (the run's embedded database) unless given. */
  mongoUrl?: string;
  /** Database name on that server, shared by all replicas. */
  dbName: string;
  /** How many processes; 3 unless given. */
  replicas?: number;
  /** Extra environment for every replica (secrets, limits). */
  env?: Record<string, string>;
  /** Longest wait for one replica's /readyz; 30 s unless given. */
  readyTimeoutMs?: number;
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Replicas {
  /** Number of replicas. */
  readonly size: number;
  /** The base URL of each replica (`http://127.0.0.1:<port>`), by index. */
  readonly urls: readonly string[];
  /** The database URL (database name included) the replicas use, for scripts such as an admin CLI. */
  readonly mongoUrl: string;
  /** A supertest client for the next replica in turn (round robin). */
  next(): supertest.Agent;
  /** The base URL of the next replica in turn (shares the round-robin position with next()). */
  nextUrl(): string;
  /** A supertest client for replica i. */
  replica(i: number): supertest.Agent;
  /** Sends replica i a signal (SIGKILL unless given) and waits until its process has exited. */
  kill(i: number, signal?: NodeJS.Signals): Promise<ExitStatus>;
  /** Starts replica i again (after kill), on the same port when it is free, and waits until it is ready. */
  restart(i: number): Promise<void>;
  /** The recent output (stdout and stderr) of replica i, for failure messages. */
  output(i: number): string;
  /** Stops every replica (SIGTERM, SIGKILL after a few seconds) and waits until all have exited. */
  stop(): Promise<void>;
}

const OUTPUT_TAIL = 8_000;
const STOP_GRACE_MS = 5_000;
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

/** The database URL with the database name set (the apps let a name in the URL win). */
export function databaseUrl(serverUrl: string, dbName: string): string {
  const url = new ConnectionString(serverUrl);
  url.pathname = `/${dbName}`;
  return url.toString();
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function exited(child: ChildProcess): Promise<ExitStatus> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

class Replica {
  child?: ChildProcess;
  log = '';

  constructor(
    private readonly script: string,
    private readonly env: NodeJS.ProcessEnv,
    public port: number,
    private readonly readyTimeoutMs: number,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.log = '';
    const child = spawn(process.execPath, [this.script], {
      env: { ...this.env, PORT: String(this.port) },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    running.add(child);
    child.once('exit', () => running.delete(child));
    // Keep the IPC channel from holding the test process open; it exists only so the child notices if we die.
    child.channel?.unref();
    const append = (chunk: Buffer) => {
      this.log = (this.log + chunk.toString()).slice(-OUTPUT_TAIL);
    };
    child.stdout?.on('data', append);
    child.stderr?.on('data', append);
    this.child = child;
    await this.waitReady(child);
  }

  private async waitReady(child: ChildProcess): Promise<void> {
    const deadline = Date.now() + this.readyTimeoutMs;
    let exit: ExitStatus | undefined;
    void exited(child).then((status) => (exit = status));
    while (Date.now() < deadline) {
      if (exit) throw new Error(`replica on port ${this.port} exited before it was ready (code ${exit.code}, signal ${exit.signal}):\n${this.log}`);
      const ready = await fetch(`${this.url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
        (res) => res.status === 200,
        () => false,
      );
      if (ready) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGKILL');
    throw new Error(`replica on port ${this.port} not ready after ${this.readyTimeoutMs} ms:\n${this.log}`);
  }

  async kill(signal: NodeJS.Signals): Promise<ExitStatus> {
    const child = this.child;
    if (!child) return { code: null, signal: null };
    const done = exited(child);
    child.kill(signal);
    return done;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const done = exited(child);
    child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await done;
    clearTimeout(force);
  }
}

/**
 * Starts N processes of one app (its main.ts bundled once per test process) on one database, each
 * on its own loopback port, and waits until every one answers /readyz with 200. Every replica is
 * killed when stop() runs, when the test process exits, and (through its IPC channel) when the test
 * process dies.
 */
export async function startReplicas(options: ReplicaOptions): Promise<Replicas> {
  const serverUrl = options.mongoUrl ?? process.env.TEST_MONGO_URL;
  if (!serverUrl) throw new Error('startReplicas: no database (TEST_MONGO_URL is not set: run through jest with the shared preset)');
  const mongoUrl = databaseUrl(serverUrl, options.dbName);
  const script = await bundleEntry(options.entry);
  installExitHook();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    SHUTDOWN_DELAY_MS: '0',
    SHUTDOWN_TIMEOUT_MS: '3000',
    MONGO_URL: mongoUrl,
    ...options.env,
  };
  const count = options.replicas ?? 3;
  const ports = await Promise.all(Array.from({ length: count }, freePort));
  const replicas = ports.map((port) => new Replica(script, env, port, options.readyTimeoutMs ?? 30_000));
  const stop = async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
  };
  const started = await Promise.allSettled(replicas.map((replica) => replica.start()));
  const failed = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }

  let turn = 0;
  const at = (i: number) => {
    const replica = replicas[i];
    if (!replica) throw new Error(`no replica ${i} (there are ${count})`);
    return replica;
  };
  const nextUrl = () => replicas[turn++ % count].url;
  return {
    size: count,
    get urls() {
      return replicas.map((replica) => replica.url);
    },
    mongoUrl,
    next: () => supertest(nextUrl()),
    nextUrl,
    replica: (i) => supertest(at(i).url),
    kill: (i, signal = 'SIGKILL') => at(i).kill(signal),
    restart: async (i) => {
      const replica = at(i);
      await replica.stop();
      if (!(await portIsFree(replica.port))) replica.port = await freePort();
      await replica.start();
    },
    output: (i) => at(i).log,
    stop,
  };
}
