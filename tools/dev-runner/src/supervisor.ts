import { spawn, type ChildProcess } from 'node:child_process';
import { forEachLine } from './for-each-line';

export interface ChildSpec {
  name: string;
  /** Arguments to `node` (the script path first). */
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
}

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the child could not be started at all. */
  error?: string;
}

export interface StoppedChild {
  name: string;
  exit: ChildExit;
  /** True when the child ignored SIGTERM for the whole grace period and was killed. */
  forced: boolean;
}

export interface SupervisorOptions {
  output(name: string, stream: 'stdout' | 'stderr', line: string): void;
  /** A child ended while nobody asked it to. */
  onUnexpectedExit(name: string, exit: ChildExit): void;
  /** How long stopAll() waits after SIGTERM before SIGKILL. */
  graceMs?: number;
}

interface Running {
  name: string;
  child: ChildProcess;
  exited: Promise<ChildExit>;
  done: boolean;
}

export function describeExit(exit: ChildExit): string {
  if (exit.error) return `could not start: ${exit.error}`;
  if (exit.signal) return `was killed by ${exit.signal}`;
  return `exited with code ${exit.code}`;
}

/** Runs node child processes, forwards their output line by line, and stops them all on request. */
export class Supervisor {
  private readonly children: Running[] = [];
  private stopping?: Promise<StoppedChild[]>;

  constructor(private readonly options: SupervisorOptions) {}

  start(spec: ChildSpec): void {
    if (this.stopping) throw new Error(`not starting ${spec.name}: shutting down`);
    const child = spawn(process.execPath, spec.args, { env: spec.env, cwd: spec.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    forEachLine(child.stdout, (line) => this.options.output(spec.name, 'stdout', line));
    forEachLine(child.stderr, (line) => this.options.output(spec.name, 'stderr', line));

    const exited = new Promise<ChildExit>((resolve) => {
      // 'close' comes after the child's last output was read, so its final words print before our report.
      child.once('close', (code, signal) => resolve({ code, signal }));
      child.once('error', (err) => resolve({ code: null, signal: null, error: err.message }));
    });
    const running: Running = { name: spec.name, child, exited, done: false };
    void exited.then((exit) => {
      running.done = true;
      if (!this.stopping) this.options.onUnexpectedExit(spec.name, exit);
    });
    this.children.push(running);
  }

  /** Names of the children still running. */
  running(): string[] {
    return this.children.filter((c) => !c.done).map((c) => c.name);
  }

  /** SIGTERM to every running child, SIGKILL to those still there after the grace period. Idempotent. */
  stopAll(): Promise<StoppedChild[]> {
    this.stopping ??= Promise.all(this.children.map((c) => this.stop(c)));
    return this.stopping;
  }

  private async stop(running: Running): Promise<StoppedChild> {
    if (running.done) return { name: running.name, exit: await running.exited, forced: false };
    let forced = false;
    const timer = setTimeout(() => {
      forced = true;
      running.child.kill('SIGKILL');
    }, this.options.graceMs ?? 10_000);
    running.child.kill('SIGTERM');
    const exit = await running.exited;
    clearTimeout(timer);
    return { name: running.name, exit, forced };
  }
}
