import { HttpError, validationFailed, type FieldIssue } from '@lib/errors';
import type { SortKey } from '@lib/paging';
import { assertContactsExist, contactsShown, dropDeletedContacts, type ContactsShown } from '../contacts/contact-links';
import type { PageParams, Shown, ShownPage } from '../paging';
import type { ScopedFilter } from '../store/account-scope';
import type { AccountStore } from '../store/crm-store';
import type { EventColor, EventDoc } from './event.model';
import { nowSeconds } from '../input/epoch';
import type { EventRecorder } from '../webhooks/event-recorder';
import { recordEvents } from '../webhooks/record-events';
import { shownEventView } from './event.presenter';

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

/** Events are shown with their contacts in full (with their owners). */
export type ShownEvent = Shown<EventDoc, ContactsShown>;
export type EventPage = ShownPage<EventDoc, ContactsShown>;

const eventRelations = (store: AccountStore, events: EventDoc[]) => contactsShown(store, events.flatMap((e) => e.contacts));

/** Use cases on the calendar events of one account: every call takes the account's store. */
export function eventService(recorder: EventRecorder) {
  const shown = async (store: AccountStore, event: EventDoc): Promise<ShownEvent> => ({ item: event, related: await eventRelations(store, [event]) });
  const recorded = recordEvents<EventDoc>(recorder, { object: 'event', view: async (store, doc) => shownEventView(await shown(store, doc)), read: (store, id) => store.events.get(id) });

  const list = async (store: AccountStore, filter: ScopedFilter, params: PageParams, key: string): Promise<EventPage> => ({
    page: await store.events.list(filter, params, key, BY_START),
    related: (records) => eventRelations(store, records),
  });

  /** E3 (and E4 without id): title, start and end required, start ≤ end. */
  async function create(store: AccountStore, input: EventChanges, contactsField: string): Promise<ShownEvent> {
    const missing: FieldIssue[] = (['title', 'start', 'end'] as const).filter((f) => input[f] === undefined).map((field) => ({ field, message: 'is required' }));
    if (missing.length) throw validationFailed(missing);
    const { title, start, end } = input as Required<Pick<EventChanges, 'title' | 'start' | 'end'>>;
    assertTimes(start, end);
    if (input.contacts?.length) await assertContactsExist(store, input.contacts, contactsField);
    const now = nowSeconds();
    const doc = await recorded.created(store, () => store.events.insert({
      title,
      start,
      end,
      allDay: input.allDay ?? false,
      color: input.color ?? null,
      is_event_starred: input.is_event_starred ?? false,
      contacts: input.contacts ?? [],
      created_time: now,
      updated_time: now,
    }));
    return shown(store, await dropDeletedContacts(store, store.events, doc));
  }

  return {
    create,

    /** E4 with an id: the sent fields replace the stored ones; start ≤ end checked on the result. Without one, E3. */
    async save(store: AccountStore, id: number | undefined, changes: EventChanges, contactsField: string): Promise<ShownEvent> {
      if (id === undefined) return create(store, changes, contactsField);
      if (changes.contacts?.length) await assertContactsExist(store, changes.contacts, contactsField);
      const doc = await recorded.updated(store, () =>
        store.events.updateByRevision(id, (current) => {
          assertTimes(changes.start ?? current.start, changes.end ?? current.end);
          return { ...changes, updated_time: nowSeconds() };
        }),
      );
      if (!doc) throw eventNotFound(id);
      return shown(store, await dropDeletedContacts(store, store.events, doc));
    },

    /** E1: events overlapping [start, end] (both inclusive), by start time. */
    overlapping: (store: AccountStore, range: { start: number; end: number } & PageParams) =>
      list(store, { start: { $lte: range.end }, end: { $gte: range.start } }, range, 'range'),

    /** E2. */
    ofContact: (store: AccountStore, contactId: number, params: PageParams) => list(store, { contacts: contactId }, params, 'contact'),

    async remove(store: AccountStore, id: number): Promise<void> {
      await recorded.deleted(store, id, async () => (await store.events.remove(id)).deletedCount > 0);
    },
  };
}

export type EventService = ReturnType<typeof eventService>;
