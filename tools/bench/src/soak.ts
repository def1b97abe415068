import autocannon from 'autocannon';
import type { BenchRequest } from './endpoints';
import { rssMb } from './processes';

export interface SoakTarget {
  app: string;
  port: number;
  pid: number;
  request: BenchRequest;
}

/** Loads every app at once for `seconds`, sampling each one's resident memory every 2 seconds. */
export async function soak(targets: SoakTarget[], seconds: number, connections: number): Promise<Map<string, Array<[number, number]>>> {
  const samples = new Map(targets.map((t) => [t.app, [] as Array<[number, number]>]));
  const started = Date.now();
  const sample = () => {
    for (const t of targets) samples.get(t.app)?.push([Date.now() - started, rssMb(t.pid)]);
  };
  sample();
  const timer = setInterval(sample, 2_000);
  try {
    await Promise.all(
      targets.map((t) =>
        autocannon({ url: `http://127.0.0.1:${t.port}`, connections, duration: seconds, requests: [{ method: t.request.method, path: t.request.path, headers: t.request.headers }] }),
      ),
    );
  } finally {
    clearInterval(timer);
  }
  sample();
  return samples;
}
