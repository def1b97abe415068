import { HttpError } from '@lib/errors';
import type { RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';

export interface RateLimitSettings {
  /** Failed attempts allowed per client address within the window. */
  maxFailures: number;
  windowMs: number;
}

export const DEFAULT_AUTH_LIMIT: RateLimitSettings = { maxFailures: 10, windowMs: 15 * 60 * 1000 };

/**
 * Slows guessing of passwords and the master key: after `maxFailures` failed attempts from one
 * address within the window, further attempts get 429 until the window ends. Only 401 answers
 * count. Counts are per process (a memory store).
 */
export function failedAttemptLimiter({ maxFailures, windowMs }: RateLimitSettings): RequestHandler {
  return rateLimit({
    windowMs,
    limit: maxFailures,
    // only refused credentials count: a typo in a form field (400) is not a guess
    skipSuccessfulRequests: true,
    requestWasSuccessful: (_req, res) => res.statusCode !== 401,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    handler: (_req, res, next) => {
      const retryAfter = res.getHeader('Retry-After') ?? String(Math.ceil(windowMs / 1000));
      next(
        new HttpError(429, 'too_many_requests', `Too many failed attempts; try again in ${retryAfter} seconds`, {
          headers: { 'Retry-After': String(retryAfter) },
        }),
      );
    },
  });
}
