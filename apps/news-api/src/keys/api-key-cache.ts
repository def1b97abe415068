import { revocableCache, type RevocableCache, type RevocationFeed } from '@lib/cache';
import type { ApiKeyDoc } from './api-key.model';

/**
 * How long a key's record is trusted without reading it again. A deleted key is published to the
 * revocation log: refused at once by the replica that deleted it and within 1 s by every other.
 * This lifetime is the backstop for a key deleted by hand in the database.
 */
export const API_KEY_TTL_MS = 10_000;

/** The API keys by id, following the database's revocation log. */
export function apiKeyCache(log: RevocationFeed, ttlMs = API_KEY_TTL_MS): RevocableCache<number, ApiKeyDoc> {
  return revocableCache<number, ApiKeyDoc>({ ttlMs, follow: { log, scope: 'news-api-keys', parseKey: Number } });
}
