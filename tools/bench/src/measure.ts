import autocannon from 'autocannon';
import type { BenchRequest } from './endpoints';
import { cpuMs, threadCpuMs } from './processes';

export interface Figures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Service CPU time per request, in milliseconds. */
  cpuMsPerRequest: number;
  requests: number;
  /** Answers that were not 2xx, plus connection errors and timeouts. */
  failures: number;
  /** The main thread's CPU time per request (the rest is V8's helper threads and libuv's pool). */
  mainThreadCpuMsPerRequest: number;
  /** When the measured run started and ended, in microseconds on the monotonic clock (a CPU profile's clock). */
  fromUs: number;
  toUs: number;
}

export interface MeasureOptions {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  /** A fixed number of requests per run instead of a duration (A/B comparisons: the same work on both sides). */
  requests?: number;
  warmupRequests?: number;
}

/** Numbers bodies across all runs: a write never repeats an earlier one (emails must be unique). */
let sequence = 0;

function fire(port: number, request: BenchRequest, connections: number, length: { duration: number } | { amount: number }) {
  const body = request.body;
  return autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    ...length,
    requests: [
      {
        method: request.method,
        path: request.path,
        headers: request.headers,
        ...(body && { setupRequest: (req: object) => ({ ...req, body: body(sequence++) }) }),
        ...(request.onResponse && { onResponse: request.onResponse }),
      },
    ],
  });
}

/** Drives one endpoint for `seconds`, measuring nothing: a warm-up. */
export async function warm(port: number, request: BenchRequest, connections: number, seconds: number): Promise<void> {
  await fire(port, request, connections, { duration: seconds });
}

/** Drives one endpoint of the service on `port` (process `pid`): a warm-up, then the measured run. */
export async function measure(port: number, pid: number, request: BenchRequest, options: MeasureOptions): Promise<Figures> {
  if (options.warmupRequests) await fire(port, request, options.connections, { amount: options.warmupRequests });
  else if (options.warmupSeconds > 0) await fire(port, request, options.connections, { duration: options.warmupSeconds });
  const fromUs = Number(process.hrtime.bigint() / 1000n);
  const cpuBefore = cpuMs(pid);
  const mainBefore = threadCpuMs(pid, pid);
  const result = await fire(port, request, options.connections, options.requests ? { amount: options.requests } : { duration: options.durationSeconds });
  const cpu = cpuMs(pid) - cpuBefore;
  const mainCpu = threadCpuMs(pid, pid) - mainBefore;
  const toUs = Number(process.hrtime.bigint() / 1000n);
  const requests = result['2xx'] + result.non2xx;
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    cpuMsPerRequest: requests ? cpu / requests : NaN,
    requests,
    failures: result.non2xx + result.errors + result.timeouts,
    mainThreadCpuMsPerRequest: requests ? mainCpu / requests : NaN,
    fromUs,
    toUs,
  };
}
