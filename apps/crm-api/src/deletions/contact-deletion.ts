import type { RelatesContacts } from '../contacts/contact-links';
import type { AccountStore } from '../store/crm-store';

/**
 * Part of deleting a contact (C5): its id leaves every note, task, event, deal and document of the
 * account, each record changed atomically; the tickets it requested stay (with the requester's name
 * and email) without their `contactID`; its campaign enrolments go (no further step runs for it). A
 * record written with the id while the delete runs removes it itself (dropDeletedContacts, the
 * deal's settle, the ticket's create).
 */
export async function contactDeleted(store: AccountStore, contactId: number): Promise<void> {
  const relating: RelatesContacts[] = [store.notes, store.tasks, store.events, store.deals, store.documents];
  await Promise.all([
    ...relating.map((records) => records.removeContacts([contactId])),
    store.tickets.unlinkContact(contactId),
    store.enrolments.removeOfContact(contactId),
  ]);
}
