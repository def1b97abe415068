import type { SortKey } from '@lib/paging';
import type { Page, PageParams } from '../paging';
import type { AccountScope, ScopedFilter, ScopedSet } from '../store/account-scope';
import type { EventDoc } from './event.model';

/** The events of one account. */
export function eventRepository(scope: AccountScope<EventDoc>) {
  return {
    insert: (fields: Omit<EventDoc, '_id' | 'account' | 'rev'>) => scope.insert((id) => ({ _id: id, ...fields }) as Omit<EventDoc, 'account'>),
    /** A compare-and-set edit on the stored event (see revision-update.ts); null when there is none. */
    updateByRevision: (id: number, changesFor: (current: EventDoc) => ScopedSet) => scope.updateByRevision(id, changesFor),
    get: (id: number) => scope.get(id),
    remove: (id: number) => scope.deleteOne({ _id: id }),

    /** A page of the events matching `filter`, in `order`; the cursor is bound to `key` and the filter. */
    list: (filter: ScopedFilter, params: PageParams, key: string, order: SortKey[]): Promise<Page<EventDoc>> => scope.page(`${key}:${JSON.stringify(filter)}`, filter, params, order),

    /** Takes the contacts out of the event `recordId`, or of every event; each event changed atomically. */
    removeContacts: (contactIds: number[], recordId?: number) =>
      scope.removeFromLists(recordId === undefined ? {} : { _id: recordId }, 'contacts', contactIds),
  };
}

export type EventRepository = ReturnType<typeof eventRepository>;
