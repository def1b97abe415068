import type { Page } from '@lib/paging';
import type { UserDoc } from './user.model';
import type { UserRepository } from './user.repository';

export interface UserFields {
  name: string;
  age: number;
  city: string;
}

export function userService(users: UserRepository) {
  return {
    /** Users in append order after the cursor (no total: nothing asks for it). */
    page: (params: { limit: number; cursor?: string }): Promise<Page<UserDoc>> => users.page(params.limit, params.cursor),

    append: (fields: UserFields): Promise<UserDoc> => users.insert(fields),
  };
}

export type UserService = ReturnType<typeof userService>;
