import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got. */
export interface Received {
  at: number;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The sender went away before the answer was written (its process killed mid-delivery). */
  aborted?: boolean;

}

/** How the receiver answers one request: a status (200 unless given), headers, a body, after a delay, or never. */
export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  delayMs?: number;
  /** Keep the request open, answering nothing (until the receiver closes). */
  hang?: boolean;
}

export interface Receiver {
  /** `http://127.0.0.1:<port>` + path. */
  url(path?: string): string;
  readonly received: Received[];
  /** Decides each answer (by request): 200 with an empty body by default. */
  answer(decide: (request: Received, index: number) => Answer): void;
  /** Answers every request kept open (`hang`) with this answer. */
  release(answer?: Answer): void;
  /** Resolves once `count` requests (matching `filter`) have arrived, within `timeoutMs`. */
  waitFor(count: number, filter?: (r: Received) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** A real HTTP server on loopback that records what it is sent (a webhook receiver). */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let decide: (request: Received, index: number) => Answer = () => ({});
  let waiters: (() => void)[] = [];
  const open = new Map<http.ServerResponse, Received>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: Received = { at: Date.now(), path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      const index = received.push(request) - 1;
      res.on('close', () => {
        if (!res.writableEnded) request.aborted = true;
        open.delete(res);
      });
      waiters.forEach((wake) => wake());
      const answer = decide(request, index);
      if (answer.hang) {
        open.set(res, request);
        return;
      }
      setTimeout(() => {
        res.writeHead(answer.status ?? 200, answer.headers ?? {});
        res.end(answer.body ?? '');
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    answer(next) {
      decide = next;
    },
    async waitFor(count, filter = () => true, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = received.filter(filter);
        if (matching.length >= count) return matching;
        if (Date.now() > deadline) throw new Error(`the receiver got ${matching.length} of ${count} expected requests within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 100);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
        waiters = [];
      }
    },
    release(answer = {}) {
      for (const res of open.keys()) {
        res.writeHead(answer.status ?? 200, answer.headers ?? {});
        res.end(answer.body ?? '');
      }
      open.clear();
    },
    async close() {
      for (const res of open.keys()) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The test file's receiver: started before its tests, emptied before each, closed after them, once
 * the app's delivery worker (`worker`) has stopped sending to it. Read it through the function.
 */
export function useReceiver(worker: () => { stop(): Promise<void> }): () => Receiver {
  let receiver: Receiver | undefined;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await worker().stop();
    await receiver?.close();
  });
  beforeEach(() => {
    receiver?.received.splice(0);
  });
  return () => {
    if (!receiver) throw new Error('the receiver starts in beforeAll');
    return receiver;
  };
}
