import { HttpError } from '@lib/errors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { counter } from './metrics';
import { admissionEnds, answerByOf } from './request-deadline';

export interface GateOptions {
  /** Heavy requests served at once by one process. */
  concurrent: number;
  /** Heavy requests waiting for a place; more are refused at once. */
  queue: number;
  /** Longest wait for a place before the request is refused (less when the request's deadline comes first: request-deadline.ts). */
  waitMs: number;
}

/** What one process serves at once; docs/RESILIENCE.md, "Bounds", says why. */
export const DEFAULT_GATE: GateOptions = { concurrent: 4, queue: 200, waitMs: 10_000 };

/** Bodies larger than this count as heavy (the JSON they parse to takes several times their size). */
export const HEAVY_BODY_BYTES = 64 * 1024;

const shed = counter('heavy_requests_shed_total', 'Heavy requests (full pages, large bodies) refused with 503: the queue was full, or the wait too long', ['reason']);

const overloaded = (reason: 'queue_full' | 'wait_timeout') => {
  shed.inc({ reason });
  return new HttpError(503, 'overloaded', 'The service is busy with large requests; try again shortly', { headers: { 'Retry-After': '1' } });
};

/** A large body (or one of unknown size) on its way. */
export const hasHeavyBody = (req: Request) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > HEAVY_BODY_BYTES;

/**
 * Admission for requests that may take megabytes of memory (full pages, large bodies): at most
 * `concurrent` at once per process, `queue` more waiting up to `waitMs`, the rest answered 503 with
 * Retry-After. Bounds the memory a burst of such requests can take, whatever their number; light
 * requests never wait. The bound is per process because the memory it protects is.
 */
export function heavyRequestGate(options: GateOptions = DEFAULT_GATE) {
  let running = 0;
  const waiting: Array<() => void> = [];

  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };

  // One listener made per gate, not closures per request: `this` is the response, and the mark
  // says it holds a place. 'close' comes once per response, after 'finish' or when the client
  // went away.
  const held = Symbol('holdsHeavyPlace');
  function releaseOnClose(this: Response & { [held]?: boolean }) {
    if (!this[held]) return;
    this[held] = false;
    release();
  }
  const start = (res: Response & { [held]?: boolean }, next: NextFunction) => {
    // the client may have gone while an earlier step (authentication) waited: 'close' has fired
    // already and would never release the place
    if (res.destroyed) return release();
    res[held] = true;
    res.on('close', releaseOnClose);
    next();
  };

  const admit = (isHeavy: (req: Request) => boolean): RequestHandler => (req, res, next) => {
    if (!isHeavy(req)) return next();
    if (running < options.concurrent) {
      running++;
      return start(res, next);
    }
    if (waiting.length >= options.queue) return next(overloaded('queue_full'));
    const timer = setTimeout(
      () => {
        const at = waiting.indexOf(go);
        if (at >= 0) waiting.splice(at, 1);
        next(overloaded('wait_timeout'));
      },
      Math.max(0, admissionEnds(answerByOf(req), options.waitMs) - Date.now()),
    );
    function go() {
      clearTimeout(timer);
      start(res, next); // the place passes straight to this request (running stays the same)
    }
    waiting.push(go);
    // a client that gives up frees its place in the queue
    res.once('close', () => {
      const at = waiting.indexOf(go);
      if (at >= 0) {
        waiting.splice(at, 1);
        clearTimeout(timer);
      }
    });
  };

  return {
    admit,
    /** For tests and metrics. */
    stats: () => ({ running, waiting: waiting.length }),
  };
}

export type HeavyRequestGate = ReturnType<typeof heavyRequestGate>;
