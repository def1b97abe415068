import { HttpError } from '@lib/errors';
import { isDuplicateKey } from '@lib/mongo';
import type { CrossTenant } from '../store/cross-tenant';
import type { AccountDoc } from './account.model';
import { apiKeyMatches, generateApiKey, hashApiKey } from './api-key';
import type { DomainUserDoc } from './domain-user.model';
import { nowSeconds } from '../input/epoch';

const LOGIN_TOUCH_SECONDS = 300;

const noSuchUser = (email: string) => new HttpError(404, 'user_not_found', `No user has the email ${email}`);

/**
 * Accounts and their users as the admin commands and sign-in see them: across accounts, by domain
 * and by email, through the cross-tenant module (store/cross-tenant.ts). One account's users are read
 * through its store (`store.users`).
 */
export function accountService(directory: CrossTenant) {
  const { credentials } = directory;

  async function ensureAccount(domain: string): Promise<AccountDoc> {
    const existing = await directory.accountByDomain(domain);
    if (existing) return existing;
    try {
      return await directory.insertAccount(domain, nowSeconds());
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      const existing = await directory.accountByDomain(domain); // created concurrently
      if (!existing) throw err;
      return existing;
    }
  }

  /** Changes a user; answers once every process has been told to forget the cached credential (see credential-cache.ts). */
  async function setUser(email: string, update: Parameters<CrossTenant['updateUser']>[1]): Promise<DomainUserDoc> {
    let user: DomainUserDoc | null;
    try {
      user = await directory.updateUser(email, update);
    } catch (err) {
      await credentials.revoke(email).catch(() => undefined); // the write may have been applied
      throw err;
    }
    if (!user) throw noSuchUser(email);
    await credentials.revoke(email);
    return user;
  }

  return {
    /** The users of the account of `domain`, by id; null when no account has the domain. */
    async usersOfDomain(domain: string): Promise<DomainUserDoc[] | null> {
      const account = await directory.accountByDomain(domain);
      return account && directory.storeOfAccount(account).users.all();
    },

    /** Adds a user to the account of `domain` (made if missing) and returns the user with a new API key. */
    async addUser(input: { domain: string; email: string; name?: string; admin?: boolean; owner?: boolean; apiKey?: string }) {
      const taken = () => new HttpError(409, 'user_exists', `A user with the email ${input.email} already exists`);
      if (await directory.userExists(input.email)) throw taken(); // before making an account for nobody
      const account = await ensureAccount(input.domain);
      const apiKey = input.apiKey ?? generateApiKey();
      try {
        const user = await directory.insertUser(account, (id) => ({
          _id: id,
          email: input.email,
          name: input.name ?? '',
          is_admin: Boolean(input.admin || input.owner),
          is_account_owner: Boolean(input.owner),
          api_key_hash: hashApiKey(apiKey),
          created_time: nowSeconds(),
          logged_in_time: null,
          is_disabled: false,
        }));
        return { user, apiKey };
      } catch (err) {
        if (isDuplicateKey(err)) throw taken();
        throw err;
      }
    },

    /** The start-up owner: created with the configured key unless a user already has that email. */
    async bootstrapOwner(input: { domain: string; email: string; apiKey: string }): Promise<'created' | 'exists'> {
      if (await directory.userExists(input.email)) return 'exists';
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

    /** True when this process verified the credential recently (it is in the credential cache). */
    knowsCredential: (email: string, apiKey: string) => credentials.lookup(email, apiKey) !== undefined,

    /**
     * The enabled user with this email and API key, or null. A verified credential is cached (see
     * credential-cache.ts), so most reads cost no database command; `fresh` (every write) reads
     * the user now. Wrong credentials are never cached.
     */
    async authenticate(email: string, apiKey: string, options: { fresh?: boolean } = {}): Promise<DomainUserDoc | null> {
      const cached = options.fresh ? undefined : credentials.lookup(email, apiKey);
      if (cached) return cached;
      const generation = credentials.generation();
      const user = await directory.userByEmail(email);
      if (!user || user.is_disabled || !apiKeyMatches(apiKey, user.api_key_hash)) return null;
      const now = nowSeconds();
      if (!user.logged_in_time || now - user.logged_in_time > LOGIN_TOUCH_SECONDS) {
        await directory.touchLogin(user, now);
        user.logged_in_time = now;
      }
      credentials.remember(user, generation);
      return user;
    },
  };
}

export type AccountService = ReturnType<typeof accountService>;
