import { driverCollection, idSequence, insertWithSequenceId } from '@lib/mongo';
import { modelSource, type CountedPage, type KeysetPager, type SortKey } from '@lib/paging';
import type { Connection } from 'mongoose';
import { userModel, type UserDoc } from './user.model';

const OLDEST_FIRST: SortKey[] = [{ field: '_id', direction: 1 }];

/** The users: the only module that knows their model and collection. */
export function userRepository(connection: Connection) {
  const User = userModel(connection);
  // Reads by id on every signed-in request: straight on the driver (the same raw documents as a lean
  // query, without building a mongoose Query for a filter that is already a number).
  const users = driverCollection(User);
  const ids = idSequence(connection, 'users');

  return {
    byId: (id: number): Promise<UserDoc | null> => users.findOne({ _id: id }),
    byEmail: (email: string) => User.findOne({ email }).lean<UserDoc>(),
    emailTaken: async (email: string) => (await User.exists({ email })) !== null,
    /** Inserts under the next id of the `users` sequence; a taken email is a duplicate-key error (11000). */
    insert: (fields: Omit<UserDoc, '_id'>): Promise<UserDoc> => insertWithSequenceId(User, ids, (id) => ({ _id: id, ...fields })),
    /** Every user, oldest first, with the total. */
    page: (pager: KeysetPager, params: { limit: number; cursor?: string }): Promise<CountedPage<UserDoc>> =>
      pager.page({ size: params.limit, cursor: params.cursor }, { from: modelSource(User), filter: {}, scope: 'users', order: OLDEST_FIRST, count: true }),
    /** Whether this call deleted it. */
    remove: async (id: number) => (await User.deleteOne({ _id: id })).deletedCount === 1,
  };
}

export type UserRepository = ReturnType<typeof userRepository>;
