import { driverCollection, idSequence, insertWithSequenceId } from '@lib/mongo';
import { collectionSource, type KeysetPager, type Page, type SortKey } from '@lib/paging';
import type { Connection } from 'mongoose';
import { userModel, type UserDoc } from './user.model';

const APPEND_ORDER: SortKey[] = [{ field: '_id', direction: 1 }];

/** The user records: the only module that knows their model and collection. */
export function userRepository(connection: Connection, pager: KeysetPager) {
  const User = userModel(connection);
  const ids = idSequence(connection, 'users');
  // The hottest read: straight to the driver (what lean() returns, without building a mongoose Query).
  const users = collectionSource(driverCollection(User));

  return {
    /** Records in append order after the cursor. */
    page: (size: number, cursor?: string): Promise<Page<UserDoc>> => pager.page({ size, cursor }, { from: users, filter: {}, scope: 'users', order: APPEND_ORDER }),
    insert: (fields: Omit<UserDoc, '_id'>): Promise<UserDoc> => insertWithSequenceId(User, ids, (id) => ({ _id: id, ...fields })),
  };
}

export type UserRepository = ReturnType<typeof userRepository>;
