import type { z } from '@lib/validation';
import type { taskOutput } from './task.outputs';
import type { UserView } from '../accounts/user.view';
import type { ContactView } from '../contacts/contact.view';
import type { TaskDoc } from './task.model';

/** The wire shape of a task (JSON and XML): related contacts as full contact objects. */
export function taskView(doc: TaskDoc, contacts: ContactView[], owner?: UserView): z.input<typeof taskOutput> {
  return {
    id: doc._id,
    subject: doc.subject,
    type: doc.type,
    priority_type: doc.priority_type,
    due: doc.due,
    status: doc.status,
    progress: doc.progress,
    is_complete: doc.is_complete,
    contacts,
    notes: doc.notes.map(String),
    owner_id: doc.owner,
    ...(owner && { taskOwner: owner }),
    created_time: doc.created_time,
    updated_time: doc.updated_time,
    entity_type: 'task' as const,
  };
}

export type TaskView = ReturnType<typeof taskView>;
