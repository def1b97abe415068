import { databaseUnavailable, type HttpError } from '@lib/errors';
import type { Request, RequestHandler, Response } from 'express';
import { counter } from './metrics';

const ANSWER_BY = Symbol('answerBy');
type Deadlined = Request & { [ANSWER_BY]?: number };

/** When `req` must be answered (requestDeadline); Infinity for a request no deadline watches. */
export const answerByOf = (req: Request): number => (req as Deadlined)[ANSWER_BY] ?? Infinity;

/** How long before the request's deadline a wait for admission ends: the time left for the work it admits to (a database operation or two). */
export const ADMISSION_MARGIN_MS = 1_000;

/**
 * When a wait for admission (the sign-in line, the heavy-request queue) that may last `waitMs` ends:
 * before the request's deadline, so that the client gets the wait's own answer (503 `overloaded`).
 */
export const admissionEnds = (answerBy: number, waitMs: number): number => Math.min(Date.now() + waitMs, answerBy - ADMISSION_MARGIN_MS);

const expired = counter('request_deadline_expired_total', 'Requests answered 503 database_unavailable because they were not answered within the request bound');

/**
 * Every request is answered within `boundMs` (DATABASE_TIME_LIMITS.requestBoundMs, 6 s): one that
 * has no answer by then gets `answer(databaseUnavailable())`, what a request whose database does
 * not answer gets. The time limits of each database operation bound one operation, not the several
 * a request makes one after another (credential check, sign-in limit, the write and its event,
 * each waiting up to its own limits on a stalled server), and the admission waits (sign-in line,
 * heavy requests) end before this bound, so what runs into it is waiting on the database. A
 * request answered before its handler began never begins it (mountRoutes); a handler already
 * running goes on and its late answer (or error) is dropped, so a write answered so may still be
 * applied, as with any 503 of a database that did not answer.
 *
 * Time spent receiving the body is the client's, not ours: while the request has not all arrived
 * the deadline moves on by another bound (a slow client is bounded by the server's request timeout).
 */
export function requestDeadline(boundMs: number, answer: (err: HttpError, req: Request, res: Response) => void): RequestHandler {
  return (req, res, next) => {
    const arm = (): NodeJS.Timeout => {
      (req as Deadlined)[ANSWER_BY] = Date.now() + boundMs;
      return setTimeout(() => {
        if (res.headersSent) return;
        if (!req.complete) {
          timer = arm();
          return;
        }
        expired.inc();
        answer(databaseUnavailable(), req, res);
      }, boundMs);
    };
    let timer = arm();
    res.once('close', () => clearTimeout(timer));
    next();
  };
}
