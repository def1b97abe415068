import { revocableCache, type RevocationFeed } from '@lib/cache';
import type { CustomFieldDoc } from './custom-field.model';

/**
 * How long an account's definitions are trusted without reading them again. Every write of a
 * definition (made, replaced, moved, deleted; also one whose outcome the database left unknown) is
 * published to the revocation log: it takes effect at once in the process that made it and within
 * REVOCATION_BOUND_MS (1 s) in every other. This lifetime is the backstop for a write whose
 * publication failed (the database went away after it) or that was made by hand.
 */
export const DEFINITION_TTL_MS = 10_000;
const SCOPE = 'crm-custom-fields';
const MAX_ACCOUNTS = 10_000;
/** What the cached definitions of all accounts hold together at most (an account at its bounds holds about 1.2 MB). */
const MAX_CHARACTERS = 8_000_000;

/** The characters a definition holds, about what it takes in memory as one-byte strings. */
const sizeOfDefinitions = (definitions: readonly CustomFieldDoc[]) =>
  definitions.reduce((sum, d) => sum + 200 + d.field_label.length + (d.field_description?.length ?? 0) + (d.field_data?.length ?? 0), 0);

export interface DefinitionCache {
  /** The account's definitions, in position order: cached, else `load()`'s (an empty list is cached too). */
  of(account: number, load: () => Promise<CustomFieldDoc[]>): Promise<readonly CustomFieldDoc[]>;
  /** Forgets the account's definitions here and, through the revocation log, in every process. */
  revoke(account: number): Promise<void>;
}

const caches = new WeakMap<RevocationFeed, DefinitionCache>();

/**
 * The custom field definitions that check records being written, per process: a contact or deal
 * write reads them from here instead of the database. One per revocation log, so every store of a
 * process shares it.
 */
export function definitionCache(log: RevocationFeed): DefinitionCache {
  let made = caches.get(log);
  if (made) return made;
  const cache = revocableCache<number, readonly CustomFieldDoc[]>({
    ttlMs: DEFINITION_TTL_MS,
    max: MAX_ACCOUNTS,
    maxSize: { total: MAX_CHARACTERS, sizeOf: sizeOfDefinitions },
    follow: { log, scope: SCOPE, parseKey: Number },
  });
  made = {
    of: async (account, load) => (await cache.getOrLoad(account, load)) ?? [],
    revoke: (account) => cache.revoke(account),
  };
  caches.set(log, made);
  return made;
}
