import { forbidden, HttpError, unauthorized } from '@lib/errors';
import type { Request, RequestHandler } from 'express';
import jwt from 'jsonwebtoken';
import { lruCache } from '@lib/cache';
import type { Role, UserDoc } from '../users/user.model';
import type { UserService } from '../users/user.service';
import { bearerToken } from '@lib/http';
import { userTokenOf } from './access-token';
import { JWT_ALGORITHM, JWT_ISSUER, signingKey, tokenUserId, type TokenSettings } from './tokens';

const challenge = (error?: string) => ({ 'WWW-Authenticate': error ? `Bearer realm="news", error="${error}"` : 'Bearer realm="news"' });

/** Why a request was refused, as our 401. Nothing says whether the signature or the user was wrong. */
function refusal(req: Request, err?: unknown) {
  const name = (err as { name?: string } | undefined)?.name;
  if (name === 'TokenExpiredError') return unauthorized('The token has expired; get a new one from POST /auth', challenge('invalid_token'));
  const presented = bearerToken(req.headers) !== undefined || 'access_token' in (req.query as object) || typeof (req.body as { access_token?: unknown })?.access_token === 'string';
  if (!presented) return unauthorized('Sign in: send the token from POST /auth as Authorization: Bearer <token>', challenge());
  return unauthorized('The token is not valid', challenge('invalid_token'));
}

/**
 * How many verified tokens each process remembers (least recently used dropped first). Only tokens
 * this service signed and whose claims passed are kept, each about 200 bytes: about 200 kB at most.
 */
export const VERIFIED_TOKENS_MAX = 1_000;

export interface JwtAuth {
  /** Any signed-in user; the user is read through the token-user cache (TOKEN_USER_TTL_MS). */
  requireUser: RequestHandler;
  /** Any signed-in user, as read from the database at most STORED_USER_MAX_AGE_MS (1 s) before, as roles are (GET /users/me). */
  requireStoredUser: RequestHandler;
  /** A signed-in user with one of the roles, as read at most 1 s before (403 otherwise). */
  requireRole(...roles: Role[]): RequestHandler[];
}

/**
 * Tokens from POST /auth, presented as `Authorization: Bearer`, or as an `access_token` query or
 * body field. HS256 only, issuer and expiry checked (one jsonwebtoken verify, remembered until the
 * token expires), the claims bounded (tokenUserId: `exp` within the lifetime, `iat` not ahead,
 * `sub` a user id), and the user must still exist.
 */
export function jwtAuth(users: UserService, settings: TokenSettings): JwtAuth {
  const key = signingKey(settings);
  const verifyOptions = { algorithms: [JWT_ALGORITHM], issuer: JWT_ISSUER } satisfies jwt.VerifyOptions;
  // A token that passed is the same text with the same answer until it expires (its claims only get
  // easier to pass as time goes on): a client sending it again skips the HMAC and the JSON parse.
  // Whether its user still exists is asked on every request all the same.
  const verified = lruCache<string, { id: number; expiresAtMs: number }>({ max: VERIFIED_TOKENS_MAX });

  /** The user id the request's token names, or the 401 saying why there is none. */
  function tokenSubject(req: Request): number | HttpError {
    const token = userTokenOf(req);
    if (!token) return refusal(req);
    const known = verified.get(token);
    if (known && Date.now() < known.expiresAtMs) return known.id;
    let payload: string | jwt.JwtPayload;
    try {
      payload = jwt.verify(token, key, verifyOptions);
    } catch (err) {
      return refusal(req, err);
    }
    const id = tokenUserId(payload, settings);
    if (id === undefined) return refusal(req);
    verified.set(token, { id, expiresAtMs: (payload as jwt.JwtPayload).exp! * 1000 });
    return id;
  }

  // Called by the router and by app.ts's admin-or-master-key check: errors go to next, never thrown.
  const signedIn =
    (read: (id: number) => Promise<UserDoc | undefined>): RequestHandler =>
    (req, _res, next) => {
      const id = tokenSubject(req);
      if (id instanceof HttpError) return next(id);
      read(id).then((user) => {
        if (!user) return next(refusal(req));
        req.user = user;
        next();
      }, next);
    };

  const requireStoredUser = signedIn(users.storedUser);
  return {
    requireUser: signedIn(users.tokenUser),
    requireStoredUser,
    requireRole: (...roles) => [
      requireStoredUser,
      (req, _res, next) => next(roles.includes(currentUser(req).role) ? undefined : forbidden(`This needs the role ${roles.join(' or ')}`)),
    ],
  };
}

/** The signed-in user of a protected route. */
export function currentUser(req: Request): UserDoc {
  const user = req.user as UserDoc | undefined;
  if (!user) throw unauthorized('Authentication required', challenge());
  return user;
}
