import { HttpError, notFound } from '@lib/errors';
import { idSequence, insertWithSequenceId } from '@lib/mongo';
import { keysetAfter, takePage } from '@lib/paging';
import type { Connection } from 'mongoose';
import { hashPassword, verifyNothing, verifyPassword } from '../auth/passwords';
import { userModel, type Role, type UserDoc } from './user.model';

const emailTaken = (email: string) => new HttpError(409, 'email_taken', `A user with the email ${email} already exists`);
const missing = (id: number) => notFound(`User ${id} not found`);

export function userService(connection: Connection) {
  const User = userModel(connection);
  const ids = idSequence(connection, 'users');

  return {
    async create(input: { email: string; password: string; role?: Role }): Promise<UserDoc> {
      if (await User.exists({ email: input.email })) throw emailTaken(input.email);
      const password_hash = await hashPassword(input.password);
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
      const user = await User.findOne({ email: email.trim().toLowerCase() }).lean<UserDoc>();
      if (!user) return verifyNothing(password).then(() => null);
      return (await verifyPassword(password, user.password_hash)) ? user : null;
    },

    findById: (id: number) => User.findById(id).lean<UserDoc>(),

    async get(id: number): Promise<UserDoc> {
      const user = await User.findById(id).lean<UserDoc>();
      if (!user) throw missing(id);
      return user;
    },

    async page(limit: number, after?: number): Promise<{ total: number; items: UserDoc[]; hasMore: boolean }> {
      const filter = after === undefined ? {} : keysetAfter([{ field: '_id', direction: 1 }], [after]);
      const [total, fetched] = await Promise.all([User.countDocuments(), User.find(filter).sort({ _id: 1 }).limit(limit + 1).lean<UserDoc[]>()]);
      return { total, ...takePage(fetched, limit) };
    },

    async remove(id: number): Promise<void> {
      const { deletedCount } = await User.deleteOne({ _id: id });
      if (deletedCount === 0) throw missing(id);
    },
  };
}

export type UserService = ReturnType<typeof userService>;
