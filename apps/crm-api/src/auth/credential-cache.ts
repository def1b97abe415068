import { revocableCache } from '@lib/mongo';
import type { Connection } from 'mongoose';
import { apiKeyMatches } from '../accounts/api-key';
import type { DomainUserDoc } from '../accounts/domain-user.model';

/**
 * How long a verified credential is trusted without asking the database. Changes made through the
 * account service of this process (API, admin command run in-process) take effect at once; changes
 * made by another process (another replica, `npm run crm:admin`) take effect within this time.
 */
export const CREDENTIAL_TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;

export interface CredentialCache {
  /** The cached enabled user with this email whose key is `apiKey`, if any. */
  lookup(email: string, apiKey: string): DomainUserDoc | undefined;
  /** A token to pass to `remember`: a `forget` in between makes `remember` a no-op. */
  generation(): number;
  remember(user: DomainUserDoc, since: number): void;
  /** Drops the user's entry; called after every change to a user (key, admin, disabled). */
  forget(email: string): void;
}

export function createCredentialCache(ttlMs = CREDENTIAL_TTL_MS): CredentialCache {
  const users = revocableCache<string, DomainUserDoc>({ ttlMs, max: MAX_ENTRIES });
  return {
    lookup(email, apiKey) {
      const user = users.get(email);
      if (!user || user.is_disabled || !apiKeyMatches(apiKey, user.api_key_hash)) return undefined;
      return user;
    },
    generation: users.generation,
    remember: (user, since) => users.remember(user.email, user, since),
    forget: users.forget,
  };
}

const caches = new WeakMap<Connection, CredentialCache>();

/** One cache per database connection, shared by every account service built on it. */
export function credentialCache(connection: Connection): CredentialCache {
  let cache = caches.get(connection);
  if (!cache) {
    cache = createCredentialCache();
    caches.set(connection, cache);
  }
  return cache;
}
