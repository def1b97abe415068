import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EMBEDDED_URL_FILE, startEmbeddedMongo, type EmbeddedMongo } from '@lib/mongo';
import type { ServiceEntry } from '@lib/services';
import { chooseDatabases, describeDatabases } from './database-lane';
import { startDemoMode, type DemoMode } from './demo/demo-mode';
import { EMBEDDED_LIMITS } from './embedded-limits';
import { planLaunch, summaryLines, type LaunchItem } from './launch-plan';
import { formatDelay, type Restart, type RestartPolicy } from './restart-backoff';
import { Supervisor, describeExit, type ChildExit } from './supervisor';
import { waitForHttp } from './wait-ready';

export interface Output {
  /** A line from the runner itself. */
  info(line: string): void;
  /** The lines naming each service and its URLs, meant to be printed as they are. */
  summary(lines: string[]): void;
  error(line: string): void;
  /** A line from a child process. */
  child(name: string, stream: 'stdout' | 'stderr', line: string): void;
}

export interface DevEnvironmentOptions {
  /** Workspace root, holding dist/. */
  root: string;
  env: NodeJS.ProcessEnv;
  output: Output;
  services?: readonly ServiceEntry[];
  readyTimeoutMs?: number;
  /** How long a child may take to stop after SIGTERM. */
  graceMs?: number;
  /** Back-off of the restarts of a child that died (1 s doubling up to 30 s unless given). */
  restartPolicy?: RestartPolicy;
  startEmbedded?: () => Promise<EmbeddedMongo>;
  /** `npm run demo`: sample feeds served locally for news-api, and demo data seeded once all are ready. */
  demo?: boolean;
}

export interface DevEnvironment {
  /** Stops everything (exit code 0); later calls do nothing. */
  stop(): void;
  /** The exit code, once everything has stopped: 0 after stop(), 1 after a failure. */
  finished: Promise<number>;
}

/**
 * `npm start`: one database lane, every built app, then the gateway; waits until all are ready
 * and prints their URLs. A child dying or not getting ready while starting stops the rest (a
 * start-up failure is a setup problem); once everything is up, a child that dies is restarted with
 * a back-off while the others keep serving, as Kubernetes restarts one pod.
 */
export function startDevEnvironment(options: DevEnvironmentOptions): DevEnvironment {
  const { output, env, readyTimeoutMs = 30_000 } = options;
  const aborted = new AbortController();
  const launched = new Map<string, LaunchItem>();
  /** Counts each child's starts, so a readiness wait reports only on the child it waited for. */
  const generations = new Map<string, number>();
  let serving = false;

  function onUnexpectedExit(name: string, exit: ChildExit, restart: Restart): boolean {
    if (!serving) {
      shutdown(1, `${name} ${describeExit(exit)}; stopping everything`);
      return false;
    }
    output.error(`${name} ${describeExit(exit)}; restarting it in ${formatDelay(restart.delayMs)} (restart ${restart.attempt} in a row)`);
    return true;
  }

  function onRestarted(name: string): void {
    const generation = (generations.get(name) ?? 0) + 1;
    generations.set(name, generation);
    const item = launched.get(name);
    if (!item) return;
    output.info(`${name} restarted`);
    const current = () => generations.get(name) === generation && !aborted.signal.aborted;
    void waitUntilReady(item).then(
      () => {
        if (current()) output.info(`${name} is ready again`);
      },
      (err: Error) => {
        if (current()) output.error(err.message);
      },
    );
  }

  const supervisor = new Supervisor({ graceMs: options.graceMs, output: output.child, onUnexpectedExit, onRestarted, restartPolicy: options.restartPolicy });
  let embedded: Promise<EmbeddedMongo | undefined> = Promise.resolve(undefined);
  let demo: Promise<DemoMode | undefined> = Promise.resolve(undefined);
  let finish!: (code: number) => void;
  const finished = new Promise<number>((resolve) => (finish = resolve));

  async function boot(): Promise<void> {
    const plan = planLaunch({ root: options.root, env, services: options.services });
    if (plan.apps.length === 0) throw new Error('no app is built: run npx nx run-many -t build');
    plan.missing.forEach((warning) => output.info(`warning: ${warning}`));

    const databases = chooseDatabases(plan.services, env);
    let mongoUrl: string | undefined;
    if (databases.embedded.length > 0) {
      embedded = (options.startEmbedded ?? (() => startEmbeddedMongo({ ownProcessGroup: true })))();
      mongoUrl = (await embedded)?.uri;
      if (mongoUrl) {
        // lets `npm run crm:admin` in another terminal reach this in-memory database
        mkdirSync(path.dirname(EMBEDDED_URL_FILE), { recursive: true });
        writeFileSync(EMBEDDED_URL_FILE, `${mongoUrl}\n`);
      }
    }
    describeDatabases(databases, mongoUrl).forEach((line) => output.info(line));
    if (databases.embedded.length > 0) EMBEDDED_LIMITS.forEach((line) => output.info(line));
    if (options.demo) demo = startDemoMode(options.root, env);
    const demoMode = await demo;

    const embeddedEnv: Record<string, string> = mongoUrl ? { MONGO_URL: mongoUrl } : {};
    for (const app of plan.apps) launch(app, { ...(databases.embedded.includes(app.name) ? embeddedEnv : {}), ...demoMode?.envFor(app.name) });
    await Promise.all(plan.apps.map((app) => waitUntilReady(app)));
    if (plan.gateway) {
      launch(plan.gateway, {});
      await waitUntilReady(plan.gateway);
    }
    serving = true;
    output.info('ready:');
    output.summary(summaryLines(plan.gateway ? [...plan.apps, plan.gateway] : plan.apps));
    output.info(`API docs: ${plan.apps.map((app) => `${app.urls.at(-1)}/docs`).join('  ')}`);
    if (demoMode) {
      output.info('demo: storing the sample data through the APIs…');
      await demoMode.seed(plan.apps).then(
        (lines) => lines.forEach((line) => output.info(line)),
        (err: Error) => output.error(`demo: seeding stopped: ${err.message}`),
      );
    }
    output.info('press Ctrl-C to stop');
  }

  function launch(item: LaunchItem, extraEnv: Record<string, string>): void {
    aborted.signal.throwIfAborted();
    launched.set(item.name, item);
    supervisor.start({ name: item.name, args: [...item.nodeArgs, item.script], env: { ...env, ...item.env, ...extraEnv } });
  }

  async function waitUntilReady(item: LaunchItem): Promise<void> {
    const isReady = item.ready.anyStatus ? () => true : (status: number) => status === 200;
    try {
      await waitForHttp(item.ready.url, { timeoutMs: readyTimeoutMs, isReady, signal: aborted.signal });
    } catch (err) {
      if (aborted.signal.aborted) throw err;
      throw new Error(`${item.name} did not get ready: ${(err as Error).message}`);
    }
  }

  let stopping = false;
  function shutdown(code: number, reason?: string): void {
    // Repeats are expected: under `npm start` a Ctrl-C arrives from the terminal and again from npm.
    if (stopping) return;
    stopping = true;
    aborted.abort();
    if (reason) output.error(reason);
    const running = supervisor.running();
    if (running.length > 0) output.info(`stopping ${running.join(', ')}`);
    void (async () => {
      for (const stopped of await supervisor.stopAll()) {
        if (stopped.forced) output.error(`${stopped.name} did not stop within the grace period and was killed`);
      }
      // Waits for a server still starting, so it cannot outlive us.
      await embedded.then((db) => db?.stop()).catch(() => undefined);
      await demo.then((mode) => mode?.close()).catch(() => undefined);
      rmSync(EMBEDDED_URL_FILE, { force: true });
      if (running.length > 0) output.info('stopped');
      finish(code);
    })();
  }

  boot().catch((err: Error) => {
    if (!stopping) shutdown(1, err.message);
  });
  return { stop: () => shutdown(0), finished };
}
