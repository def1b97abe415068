import type { AccountScope } from '../store/account-scope';
import type { CredentialCache } from './credential-cache';
import type { DomainUserDoc } from './domain-user.model';

/** The users of one account (sign-in, which finds a user by email across accounts, is in store/cross-tenant.ts). */
export function userRepository(scope: AccountScope<DomainUserDoc>, cache: { users: CredentialCache; account: number }) {
  return {
    all: () => scope.find().sort({ _id: 1 }),
    byEmail: (email: string) => scope.findOne({ email }),
    /**
     * Owners of every contact and deal read: from the process's cache of users (credential-cache.ts:
     * a change to a user reaches it as a credential's revocation does, at once here and within
     * REVOCATION_BOUND_MS elsewhere), the others straight from the driver (the documents lean() gave).
     * In a transaction they are read in its snapshot, and not kept.
     */
    byIds(ids: number[]): Promise<DomainUserDoc[]> {
      const read = (missing: number[]) => scope.driverFind<DomainUserDoc>({ _id: { $in: missing } });
      return scope.inTransaction() ? read(ids) : cache.users.ownersOf(cache.account, ids, read);
    },
    /** Whether the user exists, read now: what a write checks (a write never trusts the cache). */
    exists: (id: number) => scope.exists({ _id: id }),
    /** The user, read now (a write that gives records to it). */
    get: (id: number) => scope.get(id),
  };
}

export type UserRepository = ReturnType<typeof userRepository>;
