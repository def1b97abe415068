import { revocableCache } from '@lib/cache';
import type { RevocationLog } from '@lib/mongo';
import { LRUCache } from 'lru-cache';
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
 * The users this process read lately, by email: the credentials it verified (`lookup`) and the
 * owners it showed with records (`cachedOwners`), one document per user. Every change to a user
 * (key, disable, admin flag, deletion) is revoked by email, which covers both.
 */
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
  /** Of the users `ids` of `account`, those cached (shown as owners without a read) and the ids to read. */
  cachedOwners(account: number, ids: number[]): { cached: DomainUserDoc[]; missing: number[] };
  /** Caches users read by id since `generation()` returned `since` (see `remember`). */
  rememberOwners(users: DomainUserDoc[], since: number): void;
}

export function createCredentialCache(ttlMs = CREDENTIAL_TTL_MS, log?: RevocationLog): CredentialCache {
  const follow = log && { log, scope: SCOPE, parseKey: (email: string) => email };
  const users = revocableCache<string, DomainUserDoc>({ ttlMs, max: MAX_ENTRIES, follow });
  // a user's id and email never change, so this index is never stale; an entry whose user was
  // deleted (and its email given to a new user) points at a document with another id: a miss
  const emailsById = new LRUCache<number, string>({ max: MAX_ENTRIES });
  const remember = (user: DomainUserDoc, since: number) => {
    users.remember(user.email, user, since);
    emailsById.set(user._id, user.email);
  };
  return {
    lookup(email, apiKey) {
      const user = users.get(email);
      if (!user || user.is_disabled || !apiKeyMatches(apiKey, user.api_key_hash)) return undefined;
      return user;
    },
    generation: users.generation,
    remember,
    forget: users.forget,
    revoke: users.revoke,
    cachedOwners(account, ids) {
      const cached: DomainUserDoc[] = [];
      const missing: number[] = [];
      for (const id of ids) {
        const email = emailsById.get(id);
        const user = email === undefined ? undefined : users.get(email);
        if (user?._id === id && user.account === account) cached.push(user);
        else missing.push(id);
      }
      return { cached, missing };
    },
    rememberOwners: (read, since) => read.forEach((user) => remember(user, since)),
  };
}
