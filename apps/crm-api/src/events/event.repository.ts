import type { SortKey } from '@lib/paging';
import type { Connection } from 'mongoose';
import type { CrmPager, Page } from '../paging';
import { accountScope, type ScopedFilter } from '../store/account-scope';
import { eventModel, type EventDoc } from './event.model';

type PageParams = { page_size: number; cursor?: string };

/** The events of one account. */
export function eventRepository(connection: Connection, account: number) {
  const scope = accountScope(eventModel(connection), account);
  return {
    insert: (fields: Omit<EventDoc, '_id' | 'account' | 'rev'>) => scope.insert((id) => ({ _id: id, ...fields }) as Omit<EventDoc, 'account'>),
    /** A compare-and-set edit on the stored event (see revision-update.ts); null when there is none. */
    updateByRevision: (id: number, changesFor: (current: EventDoc) => Record<string, unknown>) => scope.updateByRevision(id, changesFor),
    remove: (id: number) => scope.deleteOne({ _id: id }),

    /** A page of the events matching `filter`, in `order`; the cursor is bound to `key` and the filter. */
    list: (pager: CrmPager, filter: ScopedFilter, params: PageParams, key: string, order: SortKey[]): Promise<Page<EventDoc>> =>
      scope.page(pager, filter, params, `events:${key}:${account}:${JSON.stringify(filter)}`, order),

    /** Takes the contacts out of the event `recordId`, or of every event; each event changed atomically. */
    removeContacts: (contactIds: number[], recordId?: number) =>
      scope.removeFromLists(recordId === undefined ? {} : { _id: recordId }, 'contacts', contactIds),
  };
}

export type EventRepository = ReturnType<typeof eventRepository>;
