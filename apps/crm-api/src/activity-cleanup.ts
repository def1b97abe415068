import type { Connection } from 'mongoose';
import { eventModel } from './events/event.model';
import { removeFromLists } from '@lib/mongo';
import { noteModel } from './notes/note.model';
import { taskModel } from './tasks/task.model';

/**
 * Part of deleting a contact (C5): its id leaves every note, task and event of the account, each
 * record changed atomically. A record written with the id while the delete runs removes it
 * itself (ContactLinks.dropDeleted).
 */
export async function removeContactFromActivities(connection: Connection, account: number, contactId: number): Promise<void> {
  await Promise.all([
    removeFromLists(noteModel(connection), { account }, 'contacts', [contactId]),
    removeFromLists(taskModel(connection), { account }, 'contacts', [contactId]),
    removeFromLists(eventModel(connection), { account }, 'contacts', [contactId]),
  ]);
}

/** For deleting deals: their ids leave every note of the account, in one pass (each note changed atomically). */
export async function removeDealsFromNotes(connection: Connection, account: number, dealIds: number[]): Promise<void> {
  await removeFromLists(noteModel(connection), { account }, 'deals', dealIds);
}
