import { revocableCache } from '@lib/cache';
import type { RevocationLog } from '@lib/mongo';
import { apiKeyMatches } from './api-key';
import type { DomainUserDoc } from './domain-user.model';

/**
 * How long a verified credential is trusted without asking the database. A change of key, disable,
 * admin flag or deletion is published to the revocation log: it takes effect at once in the process
 * that made it and within REVOCATION_BOUND_MS (1 s) in every other (replicas, `npm run crm:admin`).
 * This lifetime is only the backstop for a change written to the database by hand.
 */
export const CREDENTIAL_TTL_MS = 10_000;
const SCOPE = 'crm-credentials';
const MAX_ENTRIES = 10_000;

export interface CredentialCache {
  /** The cached enabled user with this email whose key is `apiKey`, if any. */
  lookup(email: string, apiKey: string): DomainUserDoc | undefined;
  /** A token to pass to `remember`: a `forget` in between makes `remember` a no-op. */
  generation(): number;
  remember(user: DomainUserDoc, since: number): void;
  /** Drops the user's entry in this process. */
  forget(email: string): void;
  /** Drops the user's entry in every process; awaited after every change to a user (key, admin, disabled, deletion). */
  revoke(email: string): Promise<void>;
}

export function createCredentialCache(ttlMs = CREDENTIAL_TTL_MS, log?: RevocationLog): CredentialCache {
  const follow = log && { log, scope: SCOPE, parseKey: (email: string) => email };
  const users = revocableCache<string, DomainUserDoc>({ ttlMs, max: MAX_ENTRIES, follow });
  return {
    lookup(email, apiKey) {
      const user = users.get(email);
      if (!user || user.is_disabled || !apiKeyMatches(apiKey, user.api_key_hash)) return undefined;
      return user;
    },
    generation: users.generation,
    remember: (user, since) => users.remember(user.email, user, since),
    forget: users.forget,
    revoke: users.revoke,
  };
}
