import { driverCollection, idSequence, insertWithSequenceId } from '@lib/mongo';
import { collectionSource, type KeysetPager, type Page, type SortKey } from '@lib/paging';
import type { Connection } from 'mongoose';
import { userModel, type UserDoc } from './user.model';

export interface UserFields {
  name: string;
  age: number;
  city: string;
}

const APPEND_ORDER: SortKey[] = [{ field: '_id', direction: 1 }];

export function userService(connection: Connection, pager: KeysetPager) {
  const User = userModel(connection);
  const ids = idSequence(connection, 'users');
  // The hottest read: straight to the driver (what lean() returns, without building a mongoose Query).
  const users = collectionSource(driverCollection(User));

  return {
    /** Users in append order after the cursor (no total: nothing asks for it). */
    page: (params: { limit: number; cursor?: string }): Promise<Page<UserDoc>> =>
      pager.page({ size: params.limit, cursor: params.cursor }, { from: users, filter: {}, scope: 'users', order: APPEND_ORDER }),

    append: (fields: UserFields): Promise<UserDoc> => insertWithSequenceId(User, ids, (id) => ({ _id: id, ...fields })),
  };
}

export type UserService = ReturnType<typeof userService>;
