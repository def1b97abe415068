import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';

/**
 * The webhook row's receiver (webhook-receiver.ts runs it in a process of its own, started and
 * stopped by the bench, so neither its CPU nor its event loop is the load generator's): answers
 * every delivery 200 at once and records
 * when the first attempt of each message (`webhook-id`) arrived, with the id of the record its event
 * is about (`eventData.id`). The bench reads and resets the record through `/_bench/…`:
 *
 * - `GET /_bench/arrivals`: `[{ message, record, at }]`, `at` in epoch milliseconds (fractional);
 * - `POST /_bench/reset`: forget them;
 * - `POST /_bench/hold`: keep deliveries unanswered until `POST /_bench/release` (a backlog builds
 *   up in the outbox while the deliverer's slots wait: the delivery-throughput figure).
 */
export interface Arrival {
  /** The `webhook-id` header (the same on every attempt). */
  message: string;
  /** `eventData.id` of the body, when it has one. */
  record?: number;
  /** Epoch milliseconds, fractional. */
  at: number;
}

/** Epoch milliseconds with the monotonic clock's resolution (the bench compares it with its own). */
export const nowMs = () => performance.timeOrigin + performance.now();

export function receiverServer(): Server {
  let arrivals: Arrival[] = [];
  const seen = new Set<string>();
  let held: ServerResponse[] | undefined;
  const answer = (res: ServerResponse, status: number, body = ''): void => void res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);

  function control(req: IncomingMessage, res: ServerResponse): void {
    switch (`${req.method} ${req.url}`) {
      case 'GET /readyz':
        return answer(res, 200, '{}');
      case 'GET /_bench/arrivals':
        return answer(res, 200, JSON.stringify(arrivals));
      case 'POST /_bench/reset':
        arrivals = [];
        seen.clear();
        return answer(res, 204);
      case 'POST /_bench/hold':
        held ??= [];
        return answer(res, 204);
      case 'POST /_bench/release': {
        const waiting = held ?? [];
        held = undefined;
        for (const r of waiting) answer(r, 200);
        return answer(res, 200, JSON.stringify({ released: waiting.length }));
      }
      default:
        return answer(res, 404);
    }
  }

  return createServer((req, res) => {
    if (req.url?.startsWith('/_bench/') || req.url === '/readyz') {
      req.resume();
      req.on('end', () => control(req, res));
      return;
    }
    const at = nowMs();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const message = String(req.headers['webhook-id'] ?? '');
      if (!seen.has(message)) {
        seen.add(message);
        let record: number | undefined;
        try {
          const id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { eventData?: { id?: unknown } }).eventData?.id;
          if (typeof id === 'number') record = id;
        } catch {
          // not JSON: recorded without a record id
        }
        arrivals.push({ message, record, at });
      }
      if (held) held.push(res);
      else answer(res, 200);
    });
  });
}
