import { HttpError, notFound } from '@lib/errors';
import { driverCollection, idSequence, insertWithSequenceId } from '@lib/mongo';
import { modelSource, type CountedPage, type KeysetPager, type SortKey } from '@lib/paging';
import type { Connection } from 'mongoose';
import type { PasswordQueue } from '../auth/password-queue';
import { tokenUserCache } from '../auth/token-user-cache';
import { userModel, type Role, type UserDoc } from './user.model';

const emailTaken = (email: string) => new HttpError(409, 'email_taken', `A user with the email ${email} already exists`);
const missing = (id: number) => notFound(`User ${id} not found`);

const OLDEST_FIRST: SortKey[] = [{ field: '_id', direction: 1 }];

/** An email as stored and looked up: one account per address whatever its letter case. */
export const emailKey = (email: string) => email.trim().toLowerCase();

export function userService(connection: Connection, options: { pager: KeysetPager; passwords: PasswordQueue; tokenUserTtlMs?: number }) {
  const { passwords } = options;
  const User = userModel(connection);
  // Reads by id on every signed-in request: straight on the driver (the same raw documents as a lean
  // query, without building a mongoose Query for a filter that is already a number).
  const users = driverCollection(User);
  const byId = (id: number) => users.findOne({ _id: id });
  const tokenUsers = tokenUserCache(connection, options.tokenUserTtlMs);
  const ids = idSequence(connection, 'users');

  return {
    async create(input: { email: string; password: string; role?: Role }): Promise<UserDoc> {
      if (await User.exists({ email: input.email })) throw emailTaken(input.email);
      const password_hash = await passwords.hash(input.password);
      try {
        return await insertWithSequenceId(User, ids, (id) => ({ _id: id, email: input.email, password_hash, role: input.role ?? 'user', created_at: new Date() }));
      } catch (err) {
        if ((err as { code?: number }).code !== 11000) throw err;
        // The unique email index decides between two concurrent sign-ups with one email. The hash
        // (salted) is this request's own: a holder with it is our insert, retried after a lost reply.
        const holder = await User.findOne({ email: input.email }).lean<UserDoc>();
        if (holder?.password_hash === password_hash) return holder;
        throw emailTaken(input.email);
      }
    },

    /** The user with this email and password, or null; as slow for an unknown email as for a wrong password. */
    async authenticate(email: string, password: string): Promise<UserDoc | null> {
      const user = await User.findOne({ email: emailKey(email) }).lean<UserDoc>();
      if (!user) return passwords.verifyNothing(password).then(() => null);
      return (await passwords.verify(password, user.password_hash)) ? user : null;
    },

    /** The user behind a token: from the cache (TOKEN_USER_TTL_MS), else read and cached. */
    tokenUser: (id: number) => tokenUsers.getOrLoad(id, () => byId(id)),

    /** The stored user, read now (for roles: a promotion or demotion counts at once); refreshes the cache. */
    async storedUser(id: number): Promise<UserDoc | undefined> {
      const since = tokenUsers.generation();
      const user = await byId(id);
      if (!user) {
        tokenUsers.forget(id);
        return undefined;
      }
      tokenUsers.remember(id, user, since);
      return user;
    },

    async get(id: number): Promise<UserDoc> {
      const user = await byId(id);
      if (!user) throw missing(id);
      return user;
    },

    /** Every user, oldest first, with the total. */
    page: (params: { limit: number; cursor?: string }): Promise<CountedPage<UserDoc>> =>
      options.pager.page({ size: params.limit, cursor: params.cursor }, { from: modelSource(User), filter: {}, scope: 'users', order: OLDEST_FIRST, count: true }),

    /** Deletes the user; answers once every replica has been told to refuse its tokens. */
    async remove(id: number): Promise<void> {
      let deletedCount: number;
      try {
        ({ deletedCount } = await User.deleteOne({ _id: id }));
      } catch (err) {
        await tokenUsers.revoke(id).catch(() => undefined); // the write may have been applied
        throw err;
      }
      if (deletedCount === 0) throw missing(id);
      await tokenUsers.revoke(id);
    },
  };
}

export type UserService = ReturnType<typeof userService>;
