import type { SortKey } from '@lib/paging';
import type { Connection } from 'mongoose';
import type { CrmPager, Page } from '../paging';
import { accountScope, type ScopedFilter } from '../store/account-scope';
import { taskModel, type TaskDoc } from './task.model';

type PageParams = { page_size: number; cursor?: string };

/** The tasks of one account. */
export function taskRepository(connection: Connection, account: number) {
  const scope = accountScope(taskModel(connection), account);
  return {
    get: scope.get,
    insert: (fields: Omit<TaskDoc, '_id' | 'account' | 'rev'>) => scope.insert((id) => ({ _id: id, ...fields }) as Omit<TaskDoc, 'account'>),
    /** A compare-and-set edit on the stored task (see revision-update.ts); null when there is none. */
    updateByRevision: (id: number, changesFor: (current: TaskDoc) => Record<string, unknown>) => scope.updateByRevision(id, changesFor),
    remove: (id: number) => scope.deleteOne({ _id: id }),

    /** A page of the tasks matching `filter`, in `order`; the cursor is bound to `key` and the filter. */
    list: (pager: CrmPager, filter: ScopedFilter, params: PageParams, key: string, order: SortKey[]): Promise<Page<TaskDoc>> =>
      scope.page(pager, filter, params, `tasks:${key}:${account}:${JSON.stringify(filter)}`, order),

    countOwnedBy: (owner: number) => scope.count({ owner }),
    /** Takes the contacts out of the task `recordId`, or of every task; each task changed atomically. */
    removeContacts: (contactIds: number[], recordId?: number) =>
      scope.removeFromLists(recordId === undefined ? {} : { _id: recordId }, 'contacts', contactIds),
  };
}

export type TaskRepository = ReturnType<typeof taskRepository>;
