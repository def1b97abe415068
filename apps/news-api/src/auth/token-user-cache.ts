import { revocableCache, type RevocableCache, type RevocationFeed } from '@lib/cache';
import type { UserDoc } from '../users/user.model';

/**
 * How long the user behind a token is trusted without reading it again. A deletion is published to
 * the revocation log: refused at once in the process that made it and within REVOCATION_BOUND_MS
 * (1 s) in every other replica. This lifetime is only the backstop for a direct database edit.
 */
export const TOKEN_USER_TTL_MS = 10_000;

/** The users behind tokens, by id, following the database's revocation log. */
export function tokenUserCache(log: RevocationFeed, ttlMs = TOKEN_USER_TTL_MS): RevocableCache<number, UserDoc> {
  return revocableCache<number, UserDoc>({ ttlMs, follow: { log, scope: 'news-token-users', parseKey: Number } });
}
