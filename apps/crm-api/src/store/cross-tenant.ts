/**
 * REVIEW NOTE — the cross-tenant module. Everything else in crm-api sees one account, through the
 * store of the signed-in user's account (`ctx.store`, crm-store.ts). This module is the one place
 * that sees more than one: it looks up accounts by domain and users by email across all accounts
 * (sign-in, the start-up owner, the admin commands, which name a user by email), adds accounts
 * and users, changes and deletes users, keeps the credential cache (keyed by email across
 * accounts) and opens the store of an account it found (user removal counts what the user owns).
 *
 * What it may do: only those lookups and writes, each keyed by a value that names one account or
 * one user (a domain, an email, an id read from a record it found). What it must not do: take an
 * account id from a caller's input, list or change records of several accounts at once, or hand
 * out a model, a collection or the connection.
 *
 * Rule: every function here is reviewed for tenant isolation when it is added or changed, and a
 * change to this file names that review in its commit. Who uses it: accounts/account.service.ts
 * (sign-in, the account admin), deletions/user-removal.ts, and the wiring (wiring.ts).
 */
import { driverCollection, insertWithSequenceId, timeOrderedIds } from '@lib/mongo';
import type { Connection } from 'mongoose';
import { accountModel, type AccountDoc } from '../accounts/account.model';
import { credentialCache } from './credential-caches';
import { domainUserModel, type DomainUserDoc } from '../accounts/domain-user.model';
import { accountIdOf, idOfAccount } from './account-id';
import type { AccountStore, CrmStore } from './crm-store';

export function crossTenant(connection: Connection, store: CrmStore) {
  const Account = accountModel(connection);
  const DomainUser = domainUserModel(connection);
  const domainUsers = driverCollection(DomainUser);
  return {
    accountByDomain: (domain: string) => Account.findOne({ domain }).lean<AccountDoc>(),
    // accounts and users get time-ordered random ids like the records (store/account-scope.ts): a
    // user's id is shown to its account and must count nothing of the others
    insertAccount: (domain: string, created_time: number) =>
      insertWithSequenceId(Account, timeOrderedIds(connection, 'accounts'), (id) => ({ _id: id, domain, contact_count: 0, created_time })),

    // on the driver (every write and every credential not cached reads it): String() so that no
    // value can be a query operator, which mongoose's casting to the schema's string ensured before
    userByEmail: (email: string) => domainUsers.findOne({ email: String(email) }),
    userExists: async (email: string) => (await DomainUser.exists({ email })) !== null,
    /** A new user of `account`: the account's id and domain are the account's, whatever `build` gives. */
    insertUser: (account: AccountDoc, build: (id: number) => Omit<DomainUserDoc, 'account' | 'domain'>) =>
      insertWithSequenceId(DomainUser, timeOrderedIds(connection, `domain_users:${account._id}`), (id) => ({ ...build(id), account: account._id, domain: account.domain })),
    /** The user after the change, or null when no user has the email. */
    updateUser: (email: string, update: Partial<Omit<DomainUserDoc, '_id' | 'account' | 'domain' | 'email'>>) =>
      DomainUser.findOneAndUpdate({ email }, { $set: update }, { returnDocument: 'after' }).lean<DomainUserDoc>(),
    touchLogin: (user: DomainUserDoc, time: number) => DomainUser.updateOne({ _id: user._id, account: user.account }, { $set: { logged_in_time: time } }),
    deleteUser: (user: DomainUserDoc) => DomainUser.deleteOne({ _id: user._id, account: user.account }),
    /** Stores a deleted user again, as it was. */
    restoreUser: (user: DomainUserDoc) => DomainUser.create(user),

    /** The store of a user's account (a user found by email). */
    storeOfUser: (user: DomainUserDoc): AccountStore => store.of(accountIdOf(user)),
    /** The store of an account found by domain. */
    storeOfAccount: (account: AccountDoc): AccountStore => store.of(idOfAccount(account)),

    credentials: credentialCache(connection),
  };
}

export type CrossTenant = ReturnType<typeof crossTenant>;
