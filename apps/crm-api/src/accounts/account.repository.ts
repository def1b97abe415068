import { insertWithSequenceId, timeOrderedIds } from '@lib/mongo';
import type { Connection } from 'mongoose';
import { accountModel, type AccountDoc } from './account.model';
import { domainUserModel, type DomainUserDoc } from './domain-user.model';

/**
 * The tenants themselves: accounts by domain and users by email, across accounts (sign-in, the
 * start-up owner, the admin commands name a user by email, which names one user). Reads and writes
 * of one account's users go through userRepository.
 */
export function accountRepository(connection: Connection) {
  const Account = accountModel(connection);
  const DomainUser = domainUserModel(connection);
  return {
    accountById: (id: number) => Account.findById(id).lean<AccountDoc>(),
    accountByDomain: (domain: string) => Account.findOne({ domain }).lean<AccountDoc>(),
    // accounts and users get time-ordered random ids like the records (store/account-scope.ts
    // accountIds): a user's id is shown to its account and must count nothing of the others
    insertAccount: (domain: string, created_time: number) =>
      insertWithSequenceId(Account, timeOrderedIds(connection, 'accounts'), (id) => ({ _id: id, domain, contact_count: 0, created_time })),

    userByEmail: (email: string) => DomainUser.findOne({ email }).lean<DomainUserDoc>(),
    userExists: async (email: string) => (await DomainUser.exists({ email })) !== null,
    insertUser: (account: number, build: (id: number) => DomainUserDoc) => insertWithSequenceId(DomainUser, timeOrderedIds(connection, `domain_users:${account}`), build),
    /** The user after the change, or null when no user has the email. */
    updateUser: (email: string, update: Partial<DomainUserDoc>) => DomainUser.findOneAndUpdate({ email }, { $set: update }, { returnDocument: 'after' }).lean<DomainUserDoc>(),
    touchLogin: (id: number, time: number) => DomainUser.updateOne({ _id: id }, { $set: { logged_in_time: time } }),
    deleteUser: (id: number) => DomainUser.deleteOne({ _id: id }),
    /** Stores a deleted user again, as it was. */
    restoreUser: (user: DomainUserDoc) => DomainUser.create(user),
  };
}

export type AccountRepository = ReturnType<typeof accountRepository>;
