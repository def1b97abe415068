import { HttpError } from '@lib/errors';
import { driverCollection, idSequence, insertWithSequenceId } from '@lib/mongo';
import type { Connection } from 'mongoose';
import { credentialCache } from '../auth/credential-cache';
import { accountModel, type AccountDoc } from './account.model';
import { apiKeyMatches, generateApiKey, hashApiKey } from './api-key';
import { domainUserModel, type DomainUserDoc } from './domain-user.model';
import { nowSeconds } from '../epoch';

const LOGIN_TOUCH_SECONDS = 300;

const noSuchUser = (email: string) => new HttpError(404, 'user_not_found', `No user has the email ${email}`);

export function accountService(connection: Connection) {
  const Account = accountModel(connection);
  const DomainUser = domainUserModel(connection);
  const credentials = credentialCache(connection);
  const accountIds = idSequence(connection, 'accounts');
  const userIds = idSequence(connection, 'domain_users');

  async function ensureAccount(domain: string): Promise<AccountDoc> {
    const existing = await Account.findOne({ domain }).lean<AccountDoc>();
    if (existing) return existing;
    try {
      return await insertWithSequenceId(Account, accountIds, (id) => ({ _id: id, domain, contact_count: 0, created_time: nowSeconds() }));
    } catch (err) {
      if ((err as { code?: number }).code !== 11000) throw err;
      const existing = await Account.findOne({ domain }).lean<AccountDoc>(); // created concurrently
      if (!existing) throw err;
      return existing;
    }
  }

  /** Changes a user; answers once every process has been told to forget the cached credential (see auth/credential-cache). */
  async function setUser(email: string, update: Partial<DomainUserDoc>): Promise<DomainUserDoc> {
    let user: DomainUserDoc | null;
    try {
      user = await DomainUser.findOneAndUpdate({ email }, { $set: update }, { returnDocument: 'after' }).lean<DomainUserDoc>();
    } catch (err) {
      await credentials.revoke(email).catch(() => undefined); // the write may have been applied
      throw err;
    }
    if (!user) throw noSuchUser(email);
    await credentials.revoke(email);
    return user;
  }

  return {
    ensureAccount,

    findAccount: (domain: string) => Account.findOne({ domain }).lean<AccountDoc>(),

    async accountOf(user: DomainUserDoc): Promise<AccountDoc> {
      const account = await Account.findById(user.account).lean<AccountDoc>();
      if (!account) throw new Error(`account ${user.account} of user ${user._id} is missing`);
      return account;
    },

    /** Adds a user to the account of `domain` (made if missing) and returns the user with a new API key. */
    async addUser(input: { domain: string; email: string; name?: string; admin?: boolean; owner?: boolean; apiKey?: string }) {
      const taken = () => new HttpError(409, 'user_exists', `A user with the email ${input.email} already exists`);
      if (await DomainUser.exists({ email: input.email })) throw taken(); // before making an account for nobody
      const account = await ensureAccount(input.domain);
      const apiKey = input.apiKey ?? generateApiKey();
      try {
        const user = await insertWithSequenceId(DomainUser, userIds, (id) => ({
          _id: id,
          account: account._id,
          domain: account.domain,
          email: input.email,
          name: input.name ?? '',
          is_admin: Boolean(input.admin || input.owner),
          is_account_owner: Boolean(input.owner),
          api_key_hash: hashApiKey(apiKey),
          created_time: nowSeconds(),
        }) as DomainUserDoc);
        return { user, apiKey };
      } catch (err) {
        if ((err as { code?: number }).code === 11000) throw taken();
        throw err;
      }
    },

    /** The start-up owner: created with the configured key unless a user already has that email. */
    async bootstrapOwner(input: { domain: string; email: string; apiKey: string }): Promise<'created' | 'exists'> {
      if (await DomainUser.exists({ email: input.email })) return 'exists';
      try {
        await this.addUser({ ...input, name: 'Account owner', owner: true });
        return 'created';
      } catch (err) {
        if (err instanceof HttpError && err.code === 'user_exists') return 'exists';
        throw err;
      }
    },

    setAdmin: (email: string, admin: boolean) => setUser(email, { is_admin: admin }),
    setDisabled: (email: string, disabled: boolean) => setUser(email, { is_disabled: disabled }),

    async issueKey(email: string): Promise<string> {
      const apiKey = generateApiKey();
      await setUser(email, { api_key_hash: hashApiKey(apiKey) });
      return apiKey;
    },

    revokeKey: (email: string) => setUser(email, { api_key_hash: null }),

    listUsers: (account: number) => DomainUser.find({ account }).sort({ _id: 1 }).lean<DomainUserDoc[]>(),

    findUser: (account: number, email: string) => DomainUser.findOne({ account, email }).lean<DomainUserDoc>(),

    /** Owners of every contact and deal read: straight to the driver (the documents lean() gave). */
    usersById: (account: number, ids: number[]) => driverCollection(DomainUser).find({ account, _id: { $in: ids } }).toArray(),

    /** True when this process verified the credential recently (it is in the credential cache). */
    knowsCredential: (email: string, apiKey: string) => credentials.lookup(email, apiKey) !== undefined,

    /**
     * The enabled user with this email and API key, or null. A verified credential is cached (see
     * auth/credential-cache), so most reads cost no database command; `fresh` (every write) reads
     * the user now. Wrong credentials are never cached.
     */
    async authenticate(email: string, apiKey: string, options: { fresh?: boolean } = {}): Promise<DomainUserDoc | null> {
      const cached = options.fresh ? undefined : credentials.lookup(email, apiKey);
      if (cached) return cached;
      const generation = credentials.generation();
      const user = await DomainUser.findOne({ email }).lean<DomainUserDoc>();
      if (!user || user.is_disabled || !apiKeyMatches(apiKey, user.api_key_hash)) return null;
      const now = nowSeconds();
      if (!user.logged_in_time || now - user.logged_in_time > LOGIN_TOUCH_SECONDS) {
        await DomainUser.updateOne({ _id: user._id }, { $set: { logged_in_time: now } });
        user.logged_in_time = now;
      }
      credentials.remember(user, generation);
      return user;
    },
  };
}

export type AccountService = ReturnType<typeof accountService>;
