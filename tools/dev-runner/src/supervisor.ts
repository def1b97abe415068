import { spawn, type ChildProcess } from 'node:child_process';
import { forEachLine } from './for-each-line';
import { DEFAULT_RESTART_POLICY, RestartBackoff, type Restart, type RestartPolicy } from './restart-backoff';

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
  /**
   * A child ended while nobody asked it to. Answer true to have it started again after
   * `restart.delayMs` (its back-off), false to leave it stopped.
   */
  onUnexpectedExit(name: string, exit: ChildExit, restart: Restart): boolean;
  /** A child was started again after its back-off. */
  onRestarted?(name: string): void;
  /** How long stopAll() waits after SIGTERM before SIGKILL. */
  graceMs?: number;
  restartPolicy?: RestartPolicy;
}

/** One supervised child: its current process, and its back-off across restarts. */
interface Slot {
  spec: ChildSpec;
  child: ChildProcess;
  exited: Promise<ChildExit>;
  done: boolean;
  startedAt: number;
  backoff: RestartBackoff;
  /** Set while a restart is waiting out its back-off. */
  restartTimer?: NodeJS.Timeout;
}

export function describeExit(exit: ChildExit): string {
  if (exit.error) return `could not start: ${exit.error}`;
  if (exit.signal) return `was killed by ${exit.signal}`;
  return `exited with code ${exit.code}`;
}

/**
 * Runs node child processes, forwards their output line by line, restarts those that die (when
 * onUnexpectedExit says so) with an exponential back-off, and stops them all on request.
 */
export class Supervisor {
  private readonly slots: Slot[] = [];
  private stopping?: Promise<StoppedChild[]>;

  constructor(private readonly options: SupervisorOptions) {}

  start(spec: ChildSpec): void {
    if (this.stopping) throw new Error(`not starting ${spec.name}: shutting down`);
    const slot: Slot = { spec, backoff: new RestartBackoff(this.options.restartPolicy ?? DEFAULT_RESTART_POLICY), ...this.launch(spec) };
    this.slots.push(slot);
    this.superviseExit(slot);
  }

  private launch(spec: ChildSpec): Pick<Slot, 'child' | 'exited' | 'done' | 'startedAt'> {
    const child = spawn(process.execPath, spec.args, { env: spec.env, cwd: spec.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    forEachLine(child.stdout, (line) => this.options.output(spec.name, 'stdout', line));
    forEachLine(child.stderr, (line) => this.options.output(spec.name, 'stderr', line));
    const exited = new Promise<ChildExit>((resolve) => {
      // 'close' comes after the child's last output was read, so its final words print before our report.
      child.once('close', (code, signal) => resolve({ code, signal }));
      child.once('error', (err) => resolve({ code: null, signal: null, error: err.message }));
    });
    return { child, exited, done: false, startedAt: Date.now() };
  }

  /** When the slot's child ends unasked, asks onUnexpectedExit, and starts it again after the back-off if told to. */
  private superviseExit(slot: Slot): void {
    void slot.exited.then((exit) => {
      slot.done = true;
      if (this.stopping) return;
      const restart = slot.backoff.next(Date.now() - slot.startedAt);
      if (!this.options.onUnexpectedExit(slot.spec.name, exit, restart)) return;
      slot.restartTimer = setTimeout(() => {
        slot.restartTimer = undefined;
        if (this.stopping) return;
        Object.assign(slot, this.launch(slot.spec));
        this.superviseExit(slot);
        this.options.onRestarted?.(slot.spec.name);
      }, restart.delayMs);
    });
  }

  /** Names of the children running now (not those waiting to be restarted). */
  running(): string[] {
    return this.slots.filter((s) => !s.done).map((s) => s.spec.name);
  }

  /** SIGTERM to every running child, SIGKILL to those still there after the grace period; pending restarts are dropped. Idempotent. */
  stopAll(): Promise<StoppedChild[]> {
    this.stopping ??= Promise.all(this.slots.map((s) => this.stop(s)));
    return this.stopping;
  }

  private async stop(slot: Slot): Promise<StoppedChild> {
    const name = slot.spec.name;
    clearTimeout(slot.restartTimer);
    if (slot.done) return { name, exit: await slot.exited, forced: false };
    let forced = false;
    const timer = setTimeout(() => {
      forced = true;
      slot.child.kill('SIGKILL');
    }, this.options.graceMs ?? 10_000);
    slot.child.kill('SIGTERM');
    const exit = await slot.exited;
    clearTimeout(timer);
    return { name, exit, forced };
  }
}
