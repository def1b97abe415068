import type { Connection } from 'mongoose';
import { eventModel } from './events/event.model';
import { noteModel } from './notes/note.model';
import { taskModel } from './tasks/task.model';

/**
 * Part of deleting a contact (C5): its id leaves every note, task and event of the account, one
 * atomic `$pull` per collection. A record written with the id while the delete runs removes it
 * itself (ContactLinks.dropDeleted).
 */
export async function removeContactFromActivities(connection: Connection, account: number, contactId: number): Promise<void> {
  const pull = { $pull: { contacts: contactId } };
  await Promise.all([
    noteModel(connection).updateMany({ account, contacts: contactId }, pull),
    taskModel(connection).updateMany({ account, contacts: contactId }, pull),
    eventModel(connection).updateMany({ account, contacts: contactId }, pull),
  ]);
}
