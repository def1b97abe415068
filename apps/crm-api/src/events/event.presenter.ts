import type { ContactsShown } from '../contacts/contact-links';
import { contactsOf, relatedContactViews } from '../contacts/contact.presenter';
import type { Shown } from '../paging';
import type { EventDoc } from './event.model';
import { eventView, type EventView } from './event.view';

/** Event views with their contacts in full, from what the service read: no database here. */
export function eventViews(events: EventDoc[], related: ContactsShown): EventView[] {
  const contacts = relatedContactViews(related);
  return events.map((doc) => eventView(doc, contactsOf(doc.contacts, contacts)));
}

/** The view of one event the service answered with its contacts. */
export const shownEventView = ({ item, related }: Shown<EventDoc, ContactsShown>): EventView => eventViews([item], related)[0];
