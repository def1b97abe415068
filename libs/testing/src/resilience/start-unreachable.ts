import { DATABASE_TIME_LIMITS } from '@lib/mongo';
import { startFaultyDatabase } from '../database/faulty-database';
import { runService, type RunServiceOptions } from '@lib/http';
import { sendRaw, type RawRequest } from '../sweeps/raw-client';

export interface StartUnreachableCase {
  /** The app's own service options (its `main.ts` runs the same), for a database at `url`. */
  service(url: string): RunServiceOptions;
  /** A request that needs the database and the start-up steps (e.g. the bootstrap account). */
  request: RawRequest;
  /** Its answer once started. */
  startedStatus: number;
  /** The app's 503 body while the database has not been reached. */
  unavailableBody: unknown;
}

/**
 * The start-while-unreachable test of every app: started (as `main.ts` starts it) while its
 * database refuses connections, the process stays up, `/healthz` answers 200, `/readyz` 503 and
 * the request 503 with the app's error body and `Retry-After`; once the database is back the app
 * finishes its start-up steps (indexes, bootstrap) by itself, `/readyz` turns 200 and the request
 * is served.
 */
export async function expectStartsOnceDatabaseAnswers(c: StartUnreachableCase): Promise<void> {
  const db = await startFaultyDatabase();
  const listeners = { SIGTERM: process.listeners('SIGTERM'), SIGINT: process.listeners('SIGINT') };
  await db.stop();
  const running = await runService({ ...c.service(db.url), port: 0, logLevel: process.env.TEST_LOG_LEVEL ?? 'silent', startUpRetry: { firstMs: 100, maxMs: 400 } });
  try {
    // longer than one server selection: at least one attempt to reach the database has failed
    await new Promise((resolve) => setTimeout(resolve, DATABASE_TIME_LIMITS.serverSelectionMs + 500));
    const health = await sendRaw(running.port, { method: 'get', url: '/healthz', headers: {} });
    const ready = await sendRaw(running.port, { method: 'get', url: '/readyz', headers: {} });
    const refused = await sendRaw(running.port, c.request);
    expect({ health: health.status, ready: ready.status, status: refused.status, body: JSON.parse(refused.text), retryAfter: refused.headers['retry-after'] }).toEqual({
      health: 200,
      ready: 503,
      status: 503,
      body: c.unavailableBody,
      retryAfter: '5',
    });

    await db.start();
    expect(await running.started).toBe(true);
    expect((await sendRaw(running.port, { method: 'get', url: '/readyz', headers: {} })).status).toBe(200);
    const served = await sendRaw(running.port, c.request);
    expect([served.status, served.text.slice(0, 200)]).toEqual([c.startedStatus, expect.any(String)]);
  } finally {
    await running.shutdown();
    await db.close();
    for (const signal of ['SIGTERM', 'SIGINT'] as const) for (const l of process.listeners(signal)) if (!listeners[signal].includes(l)) process.removeListener(signal, l);
  }
}

/** Declares the start-while-unreachable test of an app (expectStartsOnceDatabaseAnswers). */
export function itStartsOnceDatabaseAnswers(c: StartUnreachableCase): void {
  it('stays up (/healthz 200, /readyz 503, requests 503 with the error body and Retry-After) and finishes starting by itself once the database answers', () =>
    expectStartsOnceDatabaseAnswers(c), 40_000);
}
