import { driverCollection, idSequence, insertWithSequenceId } from '@lib/mongo';
import { keysetAfter, takePage } from '@lib/paging';
import type { Connection } from 'mongoose';
import { userModel, type UserDoc } from './user.model';

export interface UserFields {
  name: string;
  age: number;
  city: string;
}

export function userService(connection: Connection) {
  const User = userModel(connection);
  const ids = idSequence(connection, 'users');

  return {
    /** Users in append order after id `after`, fetched `limit + 1` to know whether more follow. */
    async page(limit: number, after?: number): Promise<{ items: UserDoc[]; hasMore: boolean }> {
      const filter = after === undefined ? {} : keysetAfter([{ field: '_id', direction: 1 }], [after]);
      // The hottest read: straight to the driver (what lean() returns, without building a mongoose Query).
      const fetched = await driverCollection(User).find(filter, { sort: { _id: 1 }, limit: limit + 1 }).toArray();
      return takePage(fetched, limit);
    },

    append: (fields: UserFields): Promise<UserDoc> => insertWithSequenceId(User, ids, (id) => ({ _id: id, ...fields })),
  };
}

export type UserService = ReturnType<typeof userService>;
