import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { DomainUserDoc } from './domain-user.model';

/** Passwords are never returned; the spec's samples show a masked placeholder. */
export const MASKED_PASSWORD = '**********';

// A page of 40 deals shows 80 owners: the hash of a (domain, id) never changes, so it is made once.
const hashes = new LRUCache<string, string>({ max: 10_000 });
function hashedString(domain: string, id: number): string {
  const key = `${domain}:${id}`;
  let hash = hashes.get(key);
  if (hash === undefined) {
    hash = createHash('sha256').update(key).digest('hex');
    hashes.set(key, hash);
  }
  return hash;
}

/** The spec's Domain user object. */
export function userView(user: DomainUserDoc) {
  return {
    id: user._id,
    domain: user.domain,
    email: user.email,
    is_admin: user.is_admin,
    is_account_owner: user.is_account_owner,
    is_disabled: user.is_disabled,
    name: user.name,
    password: MASKED_PASSWORD,
    info_json_string: JSON.stringify({ logged_in_time: user.logged_in_time ?? 0, created_time: user.created_time }),
    hashedString: hashedString(user.domain, user._id),
  };
}

export type UserView = ReturnType<typeof userView>;
