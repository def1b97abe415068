import { HttpError, validationFailed, type FieldIssue } from '@lib/errors';
import type { SortKey } from '@lib/paging';
import type { ContactLinks } from '../contacts/contact-links';
import type { CrmPager, Page } from '../paging';
import type { ForAccount, ScopedFilter } from '../store/account-scope';
import type { EventColor, EventDoc } from './event.model';
import type { EventRepository } from './event.repository';
import { nowSeconds } from '../input/epoch';

type PageParams = { page_size: number; cursor?: string };

export interface EventChanges {
  title?: string;
  start?: number;
  end?: number;
  allDay?: boolean;
  color?: EventColor | null;
  is_event_starred?: boolean;
  contacts?: number[];
}

const BY_START: SortKey[] = [
  { field: 'start', direction: 1 },
  { field: '_id', direction: 1 },
];

const eventNotFound = (id: number) => new HttpError(404, 'event_not_found', `No event with id ${id}`);

function assertTimes(start: number, end: number): void {
  if (start > end) throw validationFailed([{ field: 'end', message: 'must not be before start' }]);
}

export function eventService(events: ForAccount<EventRepository>, options: { pager: CrmPager; links: ContactLinks }) {
  const { pager, links } = options;

  const list = (account: number, filter: ScopedFilter, params: PageParams, key: string): Promise<Page<EventDoc>> =>
    events(account).list(pager, filter, params, key, BY_START);

  return {
    /** E3 (and E4 without id): title, start and end required, start ≤ end. */
    async create(account: number, input: EventChanges, contactsField: string): Promise<EventDoc> {
      const missing: FieldIssue[] = (['title', 'start', 'end'] as const).filter((f) => input[f] === undefined).map((field) => ({ field, message: 'is required' }));
      if (missing.length) throw validationFailed(missing);
      const { title, start, end } = input as Required<Pick<EventChanges, 'title' | 'start' | 'end'>>;
      assertTimes(start, end);
      if (input.contacts?.length) await links.assertExist(account, input.contacts, contactsField);
      const now = nowSeconds();
      const doc = await events(account).insert({
        title,
        start,
        end,
        allDay: input.allDay ?? false,
        color: input.color ?? null,
        is_event_starred: input.is_event_starred ?? false,
        contacts: input.contacts ?? [],
        created_time: now,
        updated_time: now,
      });
      return links.dropDeleted(events(account), doc);
    },

    /** E4 with an id: the sent fields replace the stored ones; start ≤ end checked on the result. */
    async update(account: number, id: number, changes: EventChanges, contactsField: string): Promise<EventDoc> {
      if (changes.contacts?.length) await links.assertExist(account, changes.contacts, contactsField);
      const doc = await events(account).updateByRevision(id, (current) => {
        assertTimes(changes.start ?? current.start, changes.end ?? current.end);
        return { ...changes, updated_time: nowSeconds() };
      });
      if (!doc) throw eventNotFound(id);
      return links.dropDeleted(events(account), doc);
    },

    /** E1: events overlapping [start, end] (both inclusive), by start time. */
    overlapping: (account: number, range: { start: number; end: number } & PageParams) =>
      list(account, { start: { $lte: range.end }, end: { $gte: range.start } }, range, 'range'),

    /** E2. */
    ofContact: (account: number, contactId: number, params: PageParams) => list(account, { contacts: contactId }, params, 'contact'),

    async remove(account: number, id: number): Promise<void> {
      await events(account).remove(id);
    },
  };
}

export type EventService = ReturnType<typeof eventService>;
