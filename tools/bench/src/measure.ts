import autocannon from 'autocannon';
import type { BenchRequest } from './endpoints';
import { cpuMs } from './processes';

export interface Figures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Service CPU time per request, in milliseconds. */
  cpuMsPerRequest: number;
  requests: number;
  /** Answers that were not 2xx, plus connection errors and timeouts. */
  failures: number;
}

export interface MeasureOptions {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
}

/** Numbers bodies across all runs: a write never repeats an earlier one (emails must be unique). */
let sequence = 0;

function fire(port: number, request: BenchRequest, connections: number, duration: number) {
  const body = request.body;
  return autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration,
    requests: [
      {
        method: request.method,
        path: request.path,
        headers: request.headers,
        ...(body && { setupRequest: (req: object) => ({ ...req, body: body(sequence++) }) }),
      },
    ],
  });
}

/** Drives one endpoint of the service on `port` (process `pid`): a warm-up, then the measured run. */
export async function measure(port: number, pid: number, request: BenchRequest, options: MeasureOptions): Promise<Figures> {
  if (options.warmupSeconds > 0) await fire(port, request, options.connections, options.warmupSeconds);
  const cpuBefore = cpuMs(pid);
  const result = await fire(port, request, options.connections, options.durationSeconds);
  const cpu = cpuMs(pid) - cpuBefore;
  const requests = result['2xx'] + result.non2xx;
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    cpuMsPerRequest: requests ? cpu / requests : NaN,
    requests,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}
