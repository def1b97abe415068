import type { RelatesContacts } from '../contacts/contact-links';
import type { AccountStore } from '../store/crm-store';

/**
 * Part of deleting a contact (C5): its id leaves every note, task, event and deal of the account,
 * each record changed atomically, and its campaign enrolments go (no further step runs for it). A record written with the id while the delete runs removes it
 * itself (dropDeletedContacts, the deal's settle).
 */
export async function contactDeleted(store: AccountStore, contactId: number): Promise<void> {
  const relating: RelatesContacts[] = [store.notes, store.tasks, store.events, store.deals];
  await Promise.all([...relating.map((records) => records.removeContacts([contactId])), store.enrolments.removeOfContact(contactId)]);
}
