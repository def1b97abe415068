import autocannon from 'autocannon';
import type { BenchRequest } from './endpoints';
import { cpuMs } from './processes';

export interface SoakTarget {
  app: string;
  port: number;
  pid: number;
  request: BenchRequest;
}

export interface SoakResult {
  /** The time window (epoch ms); each app's memory probe recorded what its memory did meanwhile. */
  startedAt: number;
  endedAt: number;
  /** Per app: requests answered and CPU time used (ms) during the soak. */
  load: Map<string, { requests: number; cpuMs: number }>;
}

/** Loads every app at once for `seconds`. */
export async function soak(targets: SoakTarget[], seconds: number, connections: number): Promise<SoakResult> {
  const startedAt = Date.now();
  const load = new Map<string, { requests: number; cpuMs: number }>();
  await Promise.all(
    targets.map(async (t) => {
      const cpuBefore = cpuMs(t.pid);
      const result = await autocannon({ url: `http://127.0.0.1:${t.port}`, connections, duration: seconds, requests: [{ method: t.request.method, path: t.request.path, headers: t.request.headers }] });
      load.set(t.app, { requests: result['2xx'] + result.non2xx, cpuMs: cpuMs(t.pid) - cpuBefore });
    }),
  );
  return { startedAt, endedAt: Date.now(), load };
}
