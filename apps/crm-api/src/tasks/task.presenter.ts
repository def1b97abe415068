import { contactsOf, ownerViewsOf, relatedContactViews } from '../contacts/contact.presenter';
import type { Shown } from '../paging';
import type { TaskDoc } from './task.model';
import type { TaskRelated } from './task.service';
import { taskView, type TaskView } from './task.view';

/** Task views with their contacts in full and their owners, from what the service read: no database here. */
export function taskViews(tasks: TaskDoc[], related: TaskRelated): TaskView[] {
  const ownerViews = ownerViewsOf(related.owners);
  const contacts = relatedContactViews(related, ownerViews);
  return tasks.map((doc) => taskView(doc, contactsOf(doc.contacts, contacts), ownerViews.get(doc.owner)));
}

/** The view of one task the service answered with its relations. */
export const shownTaskView = ({ item, related }: Shown<TaskDoc, TaskRelated>): TaskView => taskViews([item], related)[0];
