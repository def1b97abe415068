import { lruCache, revocableCache } from '@lib/cache';
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

/**
 * The users this process read lately, by email: the credentials it verified (`lookup`), and apart
 * from them the owners it showed with records (`ownersOf`), which never authorise a request. A
 * verified user is an owner known too. Every change to a user (key, disable, admin flag, deletion)
 * is revoked by email, which reaches both.
 */
export interface CredentialCache {
  /** The cached enabled user with this email whose key is `apiKey`, if any (never one only shown as an owner). */
  lookup(email: string, apiKey: string): DomainUserDoc | undefined;
  /** A token to pass to `remember`: a `forget` in between makes `remember` a no-op. */
  generation(): number;
  remember(user: DomainUserDoc, since: number): void;
  /** Drops the user's entries in this process. */
  forget(email: string): void;
  /** Drops the user's entries in every process; awaited after every change to a user (key, admin, disabled, deletion). */
  revoke(email: string): Promise<void>;
  /**
   * The users `ids` of `account` shown as owners: those cached, and the others as `read` returns
   * them, kept unless a revocation came meanwhile. Call it outside transactions only: a read in a
   * transaction's snapshot may be older than a revocation made since it began.
   */
  ownersOf(account: number, ids: number[], read: (missing: number[]) => Promise<DomainUserDoc[]>): Promise<DomainUserDoc[]>;
}

export function createCredentialCache(ttlMs = CREDENTIAL_TTL_MS, log?: RevocationLog): CredentialCache {
  const follow = log && { log, scope: SCOPE, parseKey: (email: string) => email };
  const users = revocableCache<string, DomainUserDoc>({ ttlMs, max: MAX_ENTRIES, follow });
  const owners = revocableCache<string, DomainUserDoc>({ ttlMs, max: MAX_ENTRIES, follow });
  // a user's id and email never change, so this index is never stale; an entry whose user was
  // deleted (and its email given to a new user) points at a document with another id: a miss
  const emailsById = lruCache<number, string>({ max: 2 * MAX_ENTRIES });
  const known = (account: number, id: number) => {
    const email = emailsById.get(id);
    if (email === undefined) return undefined;
    const user = users.get(email) ?? owners.get(email);
    return user?._id === id && user.account === account ? user : undefined;
  };
  return {
    lookup(email, apiKey) {
      const user = users.get(email);
      if (!user || user.is_disabled || !apiKeyMatches(apiKey, user.api_key_hash)) return undefined;
      return user;
    },
    generation: users.generation,
    remember(user, since) {
      users.remember(user.email, user, since);
      emailsById.set(user._id, user.email);
    },
    forget(email) {
      users.forget(email);
      owners.forget(email);
    },
    async revoke(email) {
      owners.forget(email);
      await users.revoke(email); // published once: every process's two caches follow the same scope
    },
    async ownersOf(account, ids, read) {
      const cached: DomainUserDoc[] = [];
      const missing: number[] = [];
      for (const id of ids) {
        const user = known(account, id);
        if (user) cached.push(user);
        else missing.push(id);
      }
      if (missing.length === 0) return cached;
      const since = owners.generation();
      const fetched = await read(missing);
      for (const user of fetched) {
        owners.remember(user.email, user, since);
        emailsById.set(user._id, user.email);
      }
      return [...cached, ...fetched];
    },
  };
}
