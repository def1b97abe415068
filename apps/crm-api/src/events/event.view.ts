import type { z } from '@lib/validation';
import type { eventOutput } from './event.outputs';
import type { ContactView } from '../contacts/contact.view';
import type { EventDoc } from './event.model';

/** The wire shape of a calendar event (JSON and XML): related contacts as full contact objects. */
export function eventView(doc: EventDoc, contacts: ContactView[]): z.input<typeof eventOutput> {
  return {
    id: doc._id,
    title: doc.title,
    start: doc.start,
    end: doc.end,
    allDay: doc.allDay,
    ...(doc.color !== null && { color: doc.color }),
    is_event_starred: doc.is_event_starred,
    contacts,
    created_time: doc.created_time,
    updated_time: doc.updated_time,
  };
}

export type EventView = ReturnType<typeof eventView>;
