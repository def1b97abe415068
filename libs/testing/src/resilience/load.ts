import http from 'node:http';
import type { Express } from 'express';
import { listenLoopback, sendRaw, type RawRequest, type RawResponse } from '../sweeps/raw-client';

export interface LoadOptions {
  port: number;
  /** Concurrent keep-alive connections, each sending its next request as soon as the last is answered. */
  connections: number;
  durationMs: number;
  /** The next request of a connection (worker) — `n` counts that worker's requests. */
  next(worker: number, n: number): RawRequest;
  /** Sees every answer, with how long it took. */
  onResponse?(req: RawRequest, res: RawResponse, ms: number): void;
}

export interface LoadResult {
  total: number;
  byStatus: Record<number, number>;
  /** Requests that got no HTTP answer at all (connection refused or reset). */
  failedConnections: number;
}

/** Drives the app on `port` with `connections` concurrent clients for a bounded time. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const deadline = Date.now() + options.durationMs;
  const result: LoadResult = { total: 0, byStatus: {}, failedConnections: 0 };
  const worker = async (id: number) => {
    for (let n = 0; Date.now() < deadline; n++) {
      const req = options.next(id, n);
      const started = Date.now();
      try {
        const res = await sendRaw(options.port, req, agent);
        result.byStatus[res.status] = (result.byStatus[res.status] ?? 0) + 1;
        options.onResponse?.(req, res, Date.now() - started);
      } catch {
        result.failedConnections++;
      }
      result.total++;
    }
  };
  try {
    await Promise.all(Array.from({ length: options.connections }, (_, id) => worker(id)));
  } finally {
    agent.destroy();
  }
  return result;
}

/** How many answers had a status of 500 or more. */
export const serverErrors = (result: LoadResult) => Object.entries(result.byStatus).reduce((sum, [status, count]) => sum + (Number(status) >= 500 ? count : 0), 0);

/**
 * The under-load test of every app: `app` on loopback driven by `options`, every connection answered
 * and only `statuses` (so no 5xx) seen. Returns the run for the app's own checks of what was stored.
 */
export async function expectLoadServed(app: Express, options: Omit<LoadOptions, 'port'> & { statuses: string[] }): Promise<LoadResult> {
  const server = await listenLoopback(app);
  try {
    const result = await runLoad({ ...options, port: server.port });
    expect({ serverErrors: serverErrors(result), failedConnections: result.failedConnections, statuses: Object.keys(result.byStatus) }).toEqual({
      serverErrors: 0,
      failedConnections: 0,
      statuses: options.statuses,
    });
    return result;
  } finally {
    await server.close();
  }
}

/** That every acknowledged write (`acked`) is among the `stored` values (none lost). */
export function expectNoneMissing<T>(acked: T[], stored: Iterable<T>): void {
  const found = new Set(stored);
  expect(acked.filter((value) => !found.has(value))).toEqual([]);
}
