import autocannon from 'autocannon';
import type { BenchRequest } from './endpoints';

export interface SoakTarget {
  app: string;
  port: number;
  request: BenchRequest;
}

/**
 * Loads every app at once for `seconds` and answers the time window (epoch ms); each app's memory
 * probe records what happened to its memory meanwhile.
 */
export async function soak(targets: SoakTarget[], seconds: number, connections: number): Promise<{ startedAt: number; endedAt: number }> {
  const startedAt = Date.now();
  await Promise.all(
    targets.map((t) =>
      autocannon({ url: `http://127.0.0.1:${t.port}`, connections, duration: seconds, requests: [{ method: t.request.method, path: t.request.path, headers: t.request.headers }] }),
    ),
  );
  return { startedAt, endedAt: Date.now() };
}
