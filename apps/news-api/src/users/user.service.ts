import { HttpError, notFound } from '@lib/errors';
import type { RevocableCache } from '@lib/cache';
import type { CountedPage, KeysetPager } from '@lib/paging';
import type { PasswordQueue } from '../auth/password-queue';
import type { Role, UserDoc } from './user.model';
import type { UserRepository } from './user.repository';

const emailTaken = (email: string) => new HttpError(409, 'email_taken', `A user with the email ${email} already exists`);
const missing = (id: number) => notFound(`User ${id} not found`);

/** An email as stored and looked up: one account per address whatever its letter case. */
export const emailKey = (email: string) => email.trim().toLowerCase();

export interface UserServiceDeps {
  users: UserRepository;
  /** The users behind tokens (and API keys), cleared on every replica when one is deleted (tokenUserCache). */
  tokenUsers: RevocableCache<number, UserDoc>;
  /** How old a cached user storedUser may answer (STORED_USER_MAX_AGE_MS in production). */
  storedUserMaxAgeMs: number;
  pager: KeysetPager;
  passwords: PasswordQueue;
  /** A deleted user's API keys and their usage go with the user. */
  keys: { removeOfUser(user: number): Promise<void> };
}

export function userService({ users, tokenUsers, storedUserMaxAgeMs, pager, passwords, keys }: UserServiceDeps) {
  const byId = users.byId;

  return {
    async create(input: { email: string; password: string; role?: Role }): Promise<UserDoc> {
      if (await users.emailTaken(input.email)) throw emailTaken(input.email);
      const password_hash = await passwords.hash(input.password);
      try {
        return await users.insert({ email: input.email, password_hash, role: input.role ?? 'user', created_at: new Date() });
      } catch (err) {
        if ((err as { code?: number }).code !== 11000) throw err;
        // The unique email index decides between two concurrent sign-ups with one email. The hash
        // (salted) is this request's own: a holder with it is our insert, retried after a lost reply.
        const holder = await users.byEmail(input.email);
        if (holder?.password_hash === password_hash) return holder;
        throw emailTaken(input.email);
      }
    },

    /** The user with this email and password, or null; as slow for an unknown email as for a wrong password. */
    async authenticate(email: string, password: string): Promise<UserDoc | null> {
      const user = await users.byEmail(emailKey(email));
      if (!user) return passwords.verifyNothing(password).then(() => null);
      return (await passwords.verify(password, user.password_hash)) ? user : null;
    },

    /** The user behind a token: from the cache (TOKEN_USER_TTL_MS), else read and cached. */
    tokenUser: (id: number) => tokenUsers.getOrLoad(id, () => byId(id)),

    /**
     * The stored user as read at most STORED_USER_MAX_AGE_MS (1 s) ago (for roles and GET /users/me:
     * a promotion, demotion or deletion counts within 1 s however it was made, a by-hand database
     * edit included); else read now, refreshing the cache.
     */
    async storedUser(id: number): Promise<UserDoc | undefined> {
      const user = await tokenUsers.getOrLoad(id, () => byId(id), storedUserMaxAgeMs);
      if (!user) tokenUsers.forget(id); // deleted: its cached copy goes too
      return user;
    },

    async get(id: number): Promise<UserDoc> {
      const user = await byId(id);
      if (!user) throw missing(id);
      return user;
    },

    /** Every user, oldest first, with the total. */
    page: (params: { limit: number; cursor?: string }): Promise<CountedPage<UserDoc>> => users.page(pager, params),

    /** Deletes the user and their API keys; answers once every replica has been told to refuse their tokens and keys. */
    async remove(id: number): Promise<void> {
      let deleted: boolean;
      try {
        deleted = await users.remove(id);
      } catch (err) {
        await tokenUsers.revoke(id).catch(() => undefined); // the write may have been applied
        throw err;
      }
      if (!deleted) throw missing(id);
      // the user's tokens and keys are refused from here on (a key is checked through its user)
      await tokenUsers.revoke(id);
      await keys.removeOfUser(id);
    },
  };
}

export type UserService = ReturnType<typeof userService>;
