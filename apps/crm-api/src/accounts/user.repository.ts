import type { AccountScope } from '../store/account-scope';
import type { DomainUserDoc } from './domain-user.model';

/** The users of one account (sign-in, which finds a user by email across accounts, is in store/cross-tenant.ts). */
export function userRepository(scope: AccountScope<DomainUserDoc>) {
  return {
    all: () => scope.find().sort({ _id: 1 }),
    byEmail: (email: string) => scope.findOne({ email }),
    /** Owners of every contact and deal read: straight to the driver (the documents lean() gave). */
    byIds: (ids: number[]) => scope.driverFind<DomainUserDoc>({ _id: { $in: ids } }),
    exists: (id: number) => scope.exists({ _id: id }),
  };
}

export type UserRepository = ReturnType<typeof userRepository>;
