import { unauthorized } from '@lib/errors';
import type { RequestHandler } from 'express';
import { bearerToken, secretMatcher } from './secrets';

/** The key a client sent, as `X-API-Key: <key>` or `Authorization: Bearer <key>`. */
function presentedKey(headers: Record<string, string | string[] | undefined>): string | undefined {
  const header = headers['x-api-key'];
  if (typeof header === 'string') return header;
  return bearerToken(headers);
}

/**
 * Protects writes with a shared API key when one is configured; with no key configured, writes are
 * open (the service logs a warning at start in production). Compared in constant time.
 */
export function requireApiKey(key: string | undefined): RequestHandler {
  if (!key) return (_req, _res, next) => next();
  const matches = secretMatcher(key);
  return (req, _res, next) => {
    const given = presentedKey(req.headers);
    if (given === undefined) {
      return next(unauthorized('An API key is required: send it as X-API-Key or Authorization: Bearer', { 'WWW-Authenticate': 'Bearer' }));
    }
    if (!matches(given)) {
      return next(unauthorized('The API key is not valid', { 'WWW-Authenticate': 'Bearer error="invalid_token"' }));
    }
    next();
  };
}
