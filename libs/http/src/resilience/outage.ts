import { sendRaw } from '../sweeps/raw-client';
import { runLoad, type LoadOptions, type LoadResult } from './load';

/** A database that can be taken down and brought back (libs/mongo's faulty database in tests). */
export interface StoppableDatabase {
  stop(): Promise<void>;
  start(): Promise<void>;
}

export interface OutageRun {
  result: LoadResult;
  /** Every 503 answered under the load: how long it took, its body and its Retry-After. */
  unavailable: Array<{ ms: number; body: string; retryAfter: unknown }>;
  /** `/readyz` polled every 100 ms through the run (`at`: ms since the start). */
  readiness: Array<{ at: number; status: number }>;
  /** When the database was down, in ms since the start. */
  outage: { from: number; to: number };
}

/**
 * Runs the load while the database goes down 600 ms in and comes back `downMs` later, polling
 * `/readyz` throughout: what the database-fault tests of every app assert on.
 */
export async function loadThroughOutage(db: StoppableDatabase, options: LoadOptions & { downMs: number }): Promise<OutageRun> {
  const unavailable: OutageRun['unavailable'] = [];
  const readiness: OutageRun['readiness'] = [];
  const outage = { from: 0, to: 0 };
  const started = Date.now();
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const fault = (async () => {
    await sleep(600);
    outage.from = Date.now() - started;
    await db.stop();
    await sleep(options.downMs);
    await db.start();
    outage.to = Date.now() - started;
  })();
  const probe = (async () => {
    while (Date.now() - started < options.durationMs) {
      const res = await sendRaw(options.port, { method: 'get', url: '/readyz', headers: {} });
      readiness.push({ at: Date.now() - started, status: res.status });
      await sleep(100);
    }
  })();
  const result = await runLoad({
    ...options,
    onResponse: (req, res, ms) => {
      if (res.status === 503) unavailable.push({ ms, body: res.text, retryAfter: res.headers['retry-after'] });
      options.onResponse?.(req, res, ms);
    },
  });
  await Promise.all([fault, probe]);
  return { result, unavailable, readiness, outage };
}

/**
 * What every app's database-fault test asserts of the run: only the expected statuses and 503s,
 * no dropped connection, every 503 fast (bounded by the 3 s server selection, plus slack for a
 * busy machine) with the service's error body and `Retry-After: 5`, and readiness following the
 * database (200, then 503 while it is down, then 200 again).
 */
export function expectOutageAnswered(run: OutageRun, expected: { statuses: string[]; unavailableBody: unknown }): void {
  const { result, unavailable, readiness, outage } = run;
  expect(Object.keys(result.byStatus).sort()).toEqual(expected.statuses);
  expect(result.failedConnections).toBe(0);
  expect(unavailable.length).toBeGreaterThan(0);
  for (const answer of unavailable) {
    expect(JSON.parse(answer.body)).toEqual(expected.unavailableBody);
    expect(answer.retryAfter).toBe('5');
  }
  expect(Math.max(...unavailable.map((u) => u.ms))).toBeLessThan(4_500);
  const during = readiness.filter((r) => r.at > outage.from + 300 && r.at < outage.to);
  expect(during.length).toBeGreaterThan(0);
  expect(during.every((r) => r.status === 503)).toBe(true);
  expect(readiness[0].status).toBe(200);
  expect(readiness[readiness.length - 1].status).toBe(200);
}
