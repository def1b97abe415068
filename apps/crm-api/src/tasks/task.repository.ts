import type { SortKey } from '@lib/paging';
import type { Page, PageParams } from '../paging';
import type { AccountScope, ScopedFilter, ScopedSet } from '../store/account-scope';
import type { TaskDoc } from './task.model';

/** The tasks of one account. */
export function taskRepository(scope: AccountScope<TaskDoc>) {
  return {
    get: scope.get,
    insert: (fields: Omit<TaskDoc, '_id' | 'account' | 'rev'>) => scope.insert((id) => ({ _id: id, ...fields }) as Omit<TaskDoc, 'account'>),
    /** A compare-and-set edit on the stored task (see revision-update.ts); null when there is none. */
    updateByRevision: (id: number, changesFor: (current: TaskDoc) => ScopedSet) => scope.updateByRevision(id, changesFor),
    remove: (id: number) => scope.deleteOne({ _id: id }),

    /** A page of the tasks matching `filter`, in `order`; the cursor is bound to `key` and the filter. */
    list: (filter: ScopedFilter, params: PageParams, key: string, order: SortKey[]): Promise<Page<TaskDoc>> => scope.page(`${key}:${JSON.stringify(filter)}`, filter, params, order),

    countOwnedBy: (owner: number) => scope.count({ owner }),
    /** Takes the contacts out of the task `recordId`, or of every task; each task changed atomically. */
    /** Deleted notes leave every task, each task changed atomically. */
    removeNotes: (noteIds: number[]) => scope.removeFromLists({}, 'notes', noteIds),
    removeContacts: (contactIds: number[], recordId?: number) =>
      scope.removeFromLists(recordId === undefined ? {} : { _id: recordId }, 'contacts', contactIds),
  };
}

export type TaskRepository = ReturnType<typeof taskRepository>;
