import { MAX_RELATED_CONTACTS } from '../contacts/contact-links';
import { CONTACT_WORST_BYTES, relatedContactsBytes } from '../contacts/contact.paging';
import type { ContactsShown } from '../contacts/contact-links';
import { readBatchFor, SENT_BYTES_PER_CHAR, STORED_BYTES_PER_CHAR, type ListReading } from '../http/page-budget';
import { listNames, type ListAnswer } from '../http/page-reply';
import type { EventDoc } from './event.model';
import { eventListOutput } from './event.outputs';
import { eventViews } from './event.presenter';
import type { EventView } from './event.view';
import { EVENT_TITLE_MAX } from './event.schemas';

/** An event at its bounds without its related contacts: its title and fields. */
const OWN_WORST_BYTES = {
  sent: SENT_BYTES_PER_CHAR * EVENT_TITLE_MAX + 2 * 1024,
  stored: STORED_BYTES_PER_CHAR * EVENT_TITLE_MAX + MAX_RELATED_CONTACTS * 16 + 1024,
} as const;

/** An event at its bounds as sent, with its related contacts in full. */
export const EVENT_WORST_BYTES = { sent: OWN_WORST_BYTES.sent + MAX_RELATED_CONTACTS * CONTACT_WORST_BYTES.sent, stored: OWN_WORST_BYTES.stored } as const;

/** Event lists (E1, E2): presenting an event loads its contacts. */
export const EVENT_READING: ListReading<EventDoc> = {
  readBatch: readBatchFor(OWN_WORST_BYTES.stored),
  loads: (event) => relatedContactsBytes(event.contacts.length),
};

/** How an event list answers its page: each event shown with its contacts. */
export const EVENT_PAGE: ListAnswer<EventDoc, ContactsShown, EventView> = { reading: EVENT_READING, view: eventViews, xml: listNames(eventListOutput) };
