import { HttpError } from '@lib/errors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Schema, type Connection } from 'mongoose';
import { RateLimiterMongo } from 'rate-limiter-flexible';
import { counter } from './metrics';

export interface FailedAttemptSettings {
  /** Failed attempts allowed per client address within the window; the next attempt gets 429. */
  maxFailures: number;
  windowMs: number;
}

/**
 * Counts failed attempts (wrong credentials) per client address in MongoDB, shared by every
 * replica. Only failures count, and only once they have failed: concurrent correct requests never
 * use up the allowance. The window starts at an address's first failure (fixed window).
 */
export interface FailedAttemptLimit {
  /** Throws a 429 with Retry-After when the address has no failures left in its window. */
  check(address: string): Promise<void>;
  /** Counts one failure of the address; resolves once it is stored. */
  fail(address: string): Promise<void>;
  /** Middleware form of check (the client address is req.ip). */
  checkRequest: RequestHandler;
  /** Wraps an authentication middleware: a 401 it passes on is counted before it is answered. */
  countFailures(authenticate: RequestHandler): RequestHandler;
}

/** The sign-in limit of every app: 10 failed attempts per client address in 15 minutes. */
export const DEFAULT_FAILED_ATTEMPTS: FailedAttemptSettings = { maxFailures: 10, windowMs: 15 * 60 * 1000 };

export const FAILED_ATTEMPTS_COLLECTION = 'failed_attempts';

const failures = counter('failed_attempts_total', 'Failed attempts (wrong credentials) counted, by limit', ['limit']);
const refusals = counter('failed_attempts_refused_total', 'Requests refused with 429: the client address had no failed attempts left, by limit', ['limit']);

// The store's documents: { key, points, expire }. Declared here so ensureIndexes makes the collection
// and its indexes with the others (the library's own index creation is switched off).
const failedAttemptSchema = new Schema({ key: String, points: Number, expire: Date }, { versionKey: false });
failedAttemptSchema.index({ key: 1 }, { unique: true }); // one counter per limit and address
failedAttemptSchema.index({ expire: -1 }, { expireAfterSeconds: 0 }); // counters go when their window ends

function registerModel(connection: Connection): void {
  if (!connection.models.FailedAttempt) connection.model('FailedAttempt', failedAttemptSchema, FAILED_ATTEMPTS_COLLECTION);
}

const addressOf = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** A failed-attempt limit named `name` (its counters are apart from other limits') on the connection's database. */
export function failedAttemptLimit(connection: Connection, name: string, { maxFailures, windowMs }: FailedAttemptSettings): FailedAttemptLimit {
  registerModel(connection);
  // Made at first use: the app is built before its connection is opened (start-up retries it), and
  // the store needs the opened client and database name.
  let limiter: RateLimiterMongo | undefined;
  const store = () => (limiter ??= new RateLimiterMongo({
    storeClient: connection.getClient(),
    dbName: connection.name,
    tableName: FAILED_ATTEMPTS_COLLECTION,
    keyPrefix: name,
    points: maxFailures,
    duration: Math.ceil(windowMs / 1000),
    disableIndexesCreation: true,
  }));

  async function check(address: string): Promise<void> {
    const stored = await store().get(address);
    if (!stored || stored.consumedPoints < maxFailures) return;
    refusals.inc({ limit: name });
    const retryAfter = String(Math.max(1, Math.ceil(stored.msBeforeNext / 1000)));
    throw new HttpError(429, 'too_many_requests', `Too many failed attempts; try again in ${retryAfter} seconds`, { headers: { 'Retry-After': retryAfter } });
  }

  async function fail(address: string): Promise<void> {
    await store().penalty(address, 1);
    failures.inc({ limit: name });
  }

  return {
    check,
    fail,
    checkRequest: (req, _res, next) => {
      check(addressOf(req)).then(() => next(), next);
    },
    countFailures: (authenticate) => (req: Request, res: Response, next: NextFunction) =>
      authenticate(req, res, (err?: unknown) => {
        if (!(err instanceof HttpError) || err.status !== 401) return next(err as Error);
        fail(addressOf(req)).then(
          () => next(err),
          () => next(err), // the 401 stands even if it could not be counted
        );
      }),
  };
}
