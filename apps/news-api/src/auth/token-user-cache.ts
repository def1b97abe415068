import { revocableCache, type RevocableCache, type RevocationFeed } from '@lib/cache';
import type { UserDoc } from '../users/user.model';

/**
 * How long the user behind a token is trusted without reading it again. A deletion is published to
 * the revocation log: refused at once in the process that made it and within REVOCATION_BOUND_MS
 * (1 s) in every other replica. This lifetime is only the backstop for a direct database edit.
 */
export const TOKEN_USER_TTL_MS = 10_000;

/**
 * How old a cached user may be where its role or its stored fields are the answer (the role checks,
 * GET /users/me): read again after 1 s, so a change made by hand in the database (which publishes
 * nothing to the revocation log) counts there within the same bound as a revocation does on
 * another replica (REVOCATION_BOUND_MS). Under load this is one read of a user per second per
 * process instead of one per request.
 */
export const STORED_USER_MAX_AGE_MS = 1_000;

/** The users behind tokens, by id, following the database's revocation log. */
export function tokenUserCache(log: RevocationFeed, ttlMs = TOKEN_USER_TTL_MS): RevocableCache<number, UserDoc> {
  return revocableCache<number, UserDoc>({ ttlMs, follow: { log, scope: 'news-token-users', parseKey: Number } });
}
