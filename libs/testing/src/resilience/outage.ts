import { DATABASE_TIME_LIMITS } from '@lib/mongo';
import { sendRaw } from '../sweeps/raw-client';
import { runLoad, type LoadOptions, type LoadResult } from './load';
import type { FaultyServiceApp } from './faulty-service-app';

/** A database that can be taken down or stalled, and brought back (libs/mongo's faulty database in tests). */
export interface StoppableDatabase {
  stop(): Promise<void>;
  start(): Promise<void>;
  stall(): Promise<void>;
  resume(): Promise<void>;
}

/**
 * What the tests allow beyond DATABASE_TIME_LIMITS.requestBoundMs for one answer: the test machine
 * is shared and busy, so timers and the app's own work run late (the bound is a property of the
 * driver settings; docs/RESILIENCE.md gives measured figures).
 */
export const BUSY_MACHINE_SLACK_MS = 3_000;

export interface OutageRun {
  result: LoadResult;
  /** Every 503 answered under the load: how long it took, its body and its Retry-After. */
  unavailable: Array<{ ms: number; body: string; retryAfter: unknown }>;
  /** `/readyz` once before the load, then every 100 ms through the run (`at`: ms since the start). */
  readiness: Array<{ at: number; status: number }>;
  /** When the database was down, in ms since the start. */
  outage: { from: number; to: number };
  /** The longest any request of the load took to be answered (any status). */
  slowestMs: number;
  /** Answers slower than the request bound: when sent (ms since the start), how long they took, what they were. */
  slow: Array<{ at: number; ms: number; request: string; status: number; body: string }>;
}

/**
 * Runs the load while the database goes down 600 ms in and comes back `downMs` later, polling
 * `/readyz` throughout: what the database-fault tests of every app assert on. `fault: 'stop'`
 * (default) refuses connections; `'stall'` stops the server process so nothing is answered.
 */
export async function loadThroughOutage(db: StoppableDatabase, options: LoadOptions & { downMs: number; fault?: 'stop' | 'stall' }): Promise<OutageRun> {
  const unavailable: OutageRun['unavailable'] = [];
  const readiness: OutageRun['readiness'] = [];
  const outage = { from: 0, to: 0 };
  let slowestMs = 0;
  const slow: OutageRun['slow'] = [];
  const [down, up] = options.fault === 'stall' ? [() => db.stall(), () => db.resume()] : [() => db.stop(), () => db.start()];
  // the first probe goes before the load: on a busy machine one sent together with the load's
  // first requests can miss readiness's own 1 s ping bound
  readiness.push({ at: 0, status: (await sendRaw(options.port, { method: 'get', url: '/readyz', headers: {} })).status });
  const started = Date.now();
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const fault = (async () => {
    await sleep(600);
    outage.from = Date.now() - started;
    await down();
    await sleep(options.downMs);
    await up();
    outage.to = Date.now() - started;
  })();
  // after the load, keep probing until ready (at most 10 s more): how long recovery takes varies
  // with the backlog the server works through after a stall
  const probing = () => {
    const elapsed = Date.now() - started;
    return elapsed < options.durationMs || (readiness.at(-1)?.status !== 200 && elapsed < options.durationMs + 10_000);
  };
  const probe = (async () => {
    while (probing()) {
      const res = await sendRaw(options.port, { method: 'get', url: '/readyz', headers: {} });
      readiness.push({ at: Date.now() - started, status: res.status });
      await sleep(100);
    }
  })();
  const result = await runLoad({
    ...options,
    onResponse: (req, res, ms) => {
      slowestMs = Math.max(slowestMs, ms);
      if (ms > DATABASE_TIME_LIMITS.requestBoundMs) slow.push({ at: Date.now() - started - ms, ms, request: `${req.method} ${req.url}`, status: res.status, body: res.text.slice(0, 100) });
      if (res.status === 503) unavailable.push({ ms, body: res.text, retryAfter: res.headers['retry-after'] });
      options.onResponse?.(req, res, ms);
    },
  });
  await Promise.all([fault, probe]);
  return { result, unavailable, readiness, outage, slowestMs, slow };
}

/**
 * What every app's database-fault test asserts of the run: only the expected statuses, 503s and
 * some successes,
 * no dropped connection, every answer (503 or not) within the database time bound
 * (DATABASE_TIME_LIMITS.requestBoundMs, plus slack for a busy machine), every 503 with the
 * service's error body and `Retry-After: 5` (or, for a request held in an admission wait, the
 * sign-in line or the heavy-request queue, whose places the stuck requests keep: the service's 503
 * `overloaded` with `Retry-After: 1`), and readiness following the database (200, then 503 while
 * it is down, then 200 again).
 */
export function expectOutageAnswered(run: OutageRun, expected: Pick<OutageCase, 'statuses' | 'unavailableBody' | 'overloadedBody'>): void {
  const { result, unavailable, readiness, outage } = run;
  if (process.env.OUTAGE_REPORT) {
    const ms = unavailable.map((u) => u.ms).sort((a, b) => a - b);
    const turned = readiness.find((r) => r.at > outage.from && r.status === 503);
    const back = readiness.find((r) => r.at > outage.to && r.status === 200);
    console.log(JSON.stringify({ outage, byStatus: result.byStatus, median503: ms[Math.floor(ms.length / 2)], max503: ms[ms.length - 1], slowestMs: run.slowestMs, readyz503At: turned?.at, readyz200At: back?.at, slow: run.slow }));
  }
  // only the expected statuses (on a slow run not every one of them need occur), some success
  expect(Object.keys(result.byStatus).filter((status) => !expected.statuses.includes(status))).toEqual([]);
  expect(Object.keys(result.byStatus).some((status) => status.startsWith('2'))).toBe(true);
  expect(result.failedConnections).toBe(0);
  expect(unavailable.length).toBeGreaterThan(0);
  for (const answer of unavailable) {
    const body = JSON.parse(answer.body);
    const waited = answer.retryAfter === '1';
    expect(body).toEqual(waited ? expected.overloadedBody : expected.unavailableBody);
    if (!waited) expect(answer.retryAfter).toBe('5');
  }
  expect(unavailable.some((answer) => answer.retryAfter === '5')).toBe(true);
  expect(run.slowestMs).toBeLessThan(DATABASE_TIME_LIMITS.requestBoundMs + BUSY_MACHINE_SLACK_MS);
  const during = readiness.filter((r) => r.at > outage.from + 300 && r.at < outage.to);
  expect(during.length).toBeGreaterThan(0);
  expect(during.every((r) => r.status === 503)).toBe(true);
  expect(readiness[0].status).toBe(200);
  expect(readiness[readiness.length - 1].status).toBe(200);
}

/** How an outage test's database fails: stopped or stalled `downMs` into `durationMs` of load. */
export interface OutageTiming {
  fault: 'stop' | 'stall';
  downMs: number;
  durationMs: number;
}

export interface OutageCase extends Pick<LoadOptions, 'next' | 'onResponse'> {
  /** The statuses the load may see, the app's 503 body, and its 503 `overloaded` body (see expectOutageAnswered). */
  statuses: string[];
  unavailableBody: unknown;
  overloadedBody: unknown;
  /** Connections of load (default 50). */
  connections?: number;
}

/**
 * The database-fault test of every app: 50 connections of load (or `c.connections`) on the faulty app while its database
 * is stopped or stalled (loadThroughOutage), answered as expectOutageAnswered says. The app checks
 * afterwards that it serves again and that no acknowledged write is missing.
 */
export async function expectServedThroughOutage(faulty: FaultyServiceApp, timing: OutageTiming, c: OutageCase): Promise<OutageRun> {
  const run = await loadThroughOutage(faulty.database, { ...timing, next: c.next, onResponse: c.onResponse, port: faulty.port, connections: c.connections ?? 50 });
  expectOutageAnswered(run, c);
  return run;
}

/**
 * The database-fault tests' timings: stopped 3.5 s within 7.5 s of load (longer than the 2 s server
 * selection, so that requests waiting for the database do give up with 503); stalled 6 s within 9 s
 * (longer than the request bound, so that nothing waits the stall out).
 */
export const STOP_TIMING: OutageTiming = { fault: 'stop', downMs: 3_500, durationMs: 7_500 };
export const STALL_TIMING: OutageTiming = { fault: 'stall', downMs: 6_000, durationMs: 9_000 };

/**
 * Declares the two database-fault tests of an app: its database stopped, then stalled, during load.
 * `run` loads the app through the outage (expectServedThroughOutage) and checks what it stored;
 * `stallLoadMs` lengthens the stalled run for an app that needs longer to recover (news-api).
 */
export function itServesThroughDatabaseFaults(run: (prefix: string, timing: OutageTiming) => Promise<void>, options: { stallLoadMs?: number } = {}): void {
  const stall = { ...STALL_TIMING, durationMs: options.stallLoadMs ?? STALL_TIMING.durationMs };
  it("fails fast with 503 and the app's error body, readiness follows the database (/readyz 503, then 200), the process stays up and serves again without a restart, no acknowledged write missing", () =>
    run('f', STOP_TIMING), STOP_TIMING.durationMs + 30_000);
  it("stalled (process stopped, connections open): every request answers within the database time bound, 503 with the app's error body and Retry-After; serves again by itself once it resumes; no acknowledged write missing", () =>
    run('s', stall), stall.durationMs + 40_000);
}
