import { get } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitOptions {
  timeoutMs: number;
  intervalMs?: number;
  /** Which status counts as ready; 200 unless given. */
  isReady?(status: number): boolean;
  /** Stops waiting (the promise rejects with an AbortError). */
  signal?: AbortSignal;
}

type Probe = { status: number } | { error: string };

function probe(url: string, timeoutMs: number): Promise<Probe> {
  return new Promise((resolve) => {
    const req = get(url, { agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0 });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
  });
}

/** Polls `url` with GET until it answers a ready status; rejects with the last answer seen once timeoutMs has passed. */
export async function waitForHttp(url: string, options: WaitOptions): Promise<void> {
  const { timeoutMs, intervalMs = 200, isReady = (status) => status === 200, signal } = options;
  const deadline = Date.now() + timeoutMs;
  // Not shrunk towards the deadline: a cut-short last attempt would hide the answer worth reporting.
  const attemptMs = Math.min(2_000, timeoutMs);
  for (;;) {
    signal?.throwIfAborted();
    const result = await probe(url, attemptMs);
    if ('status' in result && isReady(result.status)) return;
    if (Date.now() >= deadline) {
      const last = 'status' in result ? `HTTP ${result.status}` : result.error;
      const limit = timeoutMs < 1_000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1_000)} s`;
      throw new Error(`${url} was not ready within ${limit} (last answer: ${last})`);
    }
    await sleep(Math.min(intervalMs, Math.max(0, deadline - Date.now())), undefined, { signal });
  }
}
