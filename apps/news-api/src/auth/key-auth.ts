import { unauthorized } from '@lib/errors';
import type { RequestHandler } from 'express';
import type { ApiKeyService } from '../keys/api-key.service';
import type { KeyLimiter } from '../keys/key-limits';
import { apiKeyOf } from './access-token';

const badKey = () => unauthorized('The API key is not valid: send a key from POST /users/me/keys as X-Api-Key (or ?apiKey=)', { 'WWW-Authenticate': 'Bearer realm="news"' });

/**
 * An API key (`X-Api-Key`, else `?apiKey=`) when the request presents one, else the JWT (`bearer`).
 * A key must be a stored key of a user that exists; each keyed request is counted against the key's
 * daily quota and burst rate (429 with Retry-After past either) and its answer carries the
 * RateLimit-Policy and RateLimit headers. Requests with a token are not counted.
 */
export function keyOrBearer(keys: ApiKeyService, limiter: KeyLimiter, bearer: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const presented = apiKeyOf(req);
    if (presented === undefined) return bearer(req, res, next);
    const check = async () => {
      const found = await keys.verify(presented);
      if (!found) return badKey();
      res.set(await limiter.admit(found.key));
      req.user = found.user;
      return undefined;
    };
    check().then(next, next);
  };
}
