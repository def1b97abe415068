import { MAX_LINKS, MAX_RELATED_CONTACTS } from '../contacts/contact-links';
import { CONTACT_WORST_BYTES, relatedContactsBytes } from '../contacts/contact.paging';
import { readBatchFor, SENT_BYTES_PER_CHAR, STORED_BYTES_PER_CHAR, type ListReading } from '../http/page-budget';
import { listNames, type ListAnswer } from '../http/page-reply';
import type { TaskDoc } from './task.model';
import { taskListOutput } from './task.outputs';
import { taskViews } from './task.presenter';
import type { TaskRelated } from './task.service';
import type { TaskView } from './task.view';
import { TASK_SUBJECT_MAX } from './task.schemas';

/** A task at its bounds without its related contacts: its subject, note ids, owner (`taskOwner`) and fields. */
const OWN_WORST_BYTES = {
  sent: SENT_BYTES_PER_CHAR * TASK_SUBJECT_MAX + MAX_LINKS * 40 + 8 * 1024,
  stored: STORED_BYTES_PER_CHAR * TASK_SUBJECT_MAX + (MAX_LINKS + MAX_RELATED_CONTACTS) * 16 + 1024,
} as const;

/** A task at its bounds as sent, with its related contacts in full. */
export const TASK_WORST_BYTES = { sent: OWN_WORST_BYTES.sent + MAX_RELATED_CONTACTS * CONTACT_WORST_BYTES.sent, stored: OWN_WORST_BYTES.stored } as const;

/** Task lists (T1–T5, C10): presenting a task loads its contacts. */
export const TASK_READING: ListReading<TaskDoc> = {
  readBatch: readBatchFor(OWN_WORST_BYTES.stored),
  loads: (task) => relatedContactsBytes(task.contacts.length),
};

/** How a task list answers its page: each task shown with its contacts and owner. */
export const TASK_PAGE: ListAnswer<TaskDoc, TaskRelated, TaskView> = { reading: TASK_READING, view: taskViews, xml: listNames(taskListOutput) };
