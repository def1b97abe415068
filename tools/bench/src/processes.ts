import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freePort } from '@lib/services';

export interface Service {
  name: string;
  port: number;
  pid: number;
  child: ChildProcess;
  stop(): Promise<void>;
}


/** Polls `GET /readyz` until it answers 200; resolves with the time that took. */
export async function waitReady(port: number, timeoutMs = 60_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ok) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`port ${port} not ready after ${timeoutMs} ms`);
}

/** Starts `node [nodeArgs] <script>` with the environment given, waits until it is ready. */
export async function startNode(name: string, script: string, env: Record<string, string>, nodeArgs: string[] = []): Promise<Service> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, script], { env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
  // stdout is a pipe that is read, as a container runtime reads it (writing to /dev/null costs less)
  child.stdout?.resume();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (child.pid === undefined) throw new Error(`${name} could not be started`);
  const pid = child.pid;
  await Promise.race([waitReady(port), exited.then(() => Promise.reject(new Error(`${name} exited at start`)))]);
  return {
    name,
    port,
    pid,
    child,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU time (user + system) used so far, in milliseconds, from a /proc stat file. */
function statCpuMs(file: string): number {
  // fields after the command name (which may hold spaces) start at "state"; utime and stime are fields 14 and 15
  const stat = readFileSync(file, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** CPU time (user + system) the process has used so far, all threads, in milliseconds. */
export function cpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/stat`);
}

/** CPU time one thread of the process has used so far, in milliseconds (the main thread's id is the pid). */
export function threadCpuMs(pid: number, tid: number): number {
  return statCpuMs(`/proc/${pid}/task/${tid}/stat`);
}

/** Resident memory of the process, in MB. */
export function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}
