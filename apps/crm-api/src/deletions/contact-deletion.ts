import type { RelatesContacts } from '../contacts/contact-links';
import type { DealRepository } from '../deals/deal.repository';
import type { EventRepository } from '../events/event.repository';
import type { NoteRepository } from '../notes/note.repository';
import type { ForAccount } from '../store/account-scope';
import type { TaskRepository } from '../tasks/task.repository';

/**
 * Part of deleting a contact (C5): its id leaves every note, task, event and deal of the account,
 * each record changed atomically. A record written with the id while the delete runs removes it
 * itself (ContactLinks.dropDeleted, the deal's settle).
 */
export function contactDeletion(repositories: {
  notes: ForAccount<NoteRepository>;
  tasks: ForAccount<TaskRepository>;
  events: ForAccount<EventRepository>;
  deals: ForAccount<DealRepository>;
}) {
  const relating: Array<ForAccount<RelatesContacts>> = [repositories.notes, repositories.tasks, repositories.events, repositories.deals];
  return async (account: number, contactId: number): Promise<void> => {
    await Promise.all(relating.map((records) => records(account).removeContacts([contactId])));
  };
}
