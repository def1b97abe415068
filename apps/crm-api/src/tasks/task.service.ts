import { HttpError, validationFailed } from '@lib/errors';
import type { SortKey } from '@lib/paging';
import type { DomainUserDoc } from '../accounts/domain-user.model';
import { assertContactsExist, contactsShown, dropDeletedContacts, type ContactsShown } from '../contacts/contact-links';
import type { ContactService } from '../contacts/contact.service';
import type { Page, PageParams, Shown, ShownPage } from '../paging';
import type { ScopedFilter } from '../store/account-scope';
import type { AccountStore } from '../store/crm-store';
import { resolveCompletion, type Completion, type SentCompletion } from './task-completion';
import type { TaskDoc } from './task.model';
import type { TaskChanges, TaskFilter, TaskInput } from './task.schemas';
import { nowSeconds } from '../input/epoch';
import type { EventRecorder } from '../webhooks/event-recorder';
import { recordEvents } from '../webhooks/record-events';
import { shownTaskView } from './task.presenter';

const BY_DUE: SortKey[] = [
  { field: 'due', direction: 1 },
  { field: '_id', direction: 1 },
];
/** C10: "latest first" = latest due date first. */
const BY_DUE_LATEST_FIRST: SortKey[] = [
  { field: 'due', direction: -1 },
  { field: '_id', direction: -1 },
];
const DAY_SECONDS = 86_400;
const NEW_TASK: Completion = { status: 'YET_TO_START', progress: 0, is_complete: false };

const taskNotFound = (id: number) => new HttpError(404, 'task_not_found', `No task with id ${id}`);

function completionOf(current: Completion, sent: SentCompletion): Completion {
  const { completion, issues } = resolveCompletion(current, sent);
  if (issues.length) throw validationFailed(issues);
  return completion;
}

/** Tasks are shown with their contacts in full and the owners of both (`taskOwner`, each contact's `domainUser`). */
export type TaskRelated = ContactsShown;
export type ShownTask = Shown<TaskDoc, TaskRelated>;
export type TaskPage = ShownPage<TaskDoc, TaskRelated>;

/** What tasks are shown with: their contacts, then the owners of the tasks and of those contacts together (two reads at most). */
const taskRelations = (store: AccountStore, tasks: TaskDoc[]): Promise<TaskRelated> =>
  contactsShown(
    store,
    tasks.flatMap((t) => t.contacts),
    tasks.map((t) => t.owner),
  );

/** Use cases on the tasks of one account: every call takes the account's store. */
export function taskService(contactService: ContactService, recorder: EventRecorder) {
  const shown = async (store: AccountStore, task: TaskDoc): Promise<ShownTask> => ({ item: task, related: await taskRelations(store, [task]) });
  const events = recordEvents<TaskDoc>(recorder, { object: 'task', view: async (store, doc) => shownTaskView(await shown(store, doc)), read: (store, id) => store.tasks.get(id) });

  /** Checks the related contacts, notes and owner that a write names (400 naming the field). */
  async function assertRelations(store: AccountStore, input: Pick<TaskChanges, 'contacts' | 'notes' | 'owner_id'>): Promise<void> {
    if (input.contacts?.length) await assertContactsExist(store, input.contacts, 'contacts');
    if (input.notes?.length) {
      if (!(await store.notes.allExist(input.notes))) throw validationFailed([{ field: 'notes', message: `names a note that is not in this account (${input.notes.join(', ')})` }]);
    }
    if (input.owner_id !== undefined && !(await store.users.exists(input.owner_id))) {
      throw validationFailed([{ field: 'owner_id', message: `names no user of this account (${input.owner_id})` }]);
    }
  }

  const list = async (store: AccountStore, filter: ScopedFilter, params: PageParams, key: string, order = BY_DUE): Promise<TaskPage> => ({
    page: (await store.tasks.list(filter, params, key, order)) as Page<TaskDoc>,
    related: (records) => taskRelations(store, records),
  });

  /** T7, T8 (`alsoContact` is the contact of the email). */
  async function create(store: AccountStore, caller: DomainUserDoc, input: TaskInput, alsoContact?: number): Promise<ShownTask> {
    const contacts = [...new Set([...(input.contacts ?? []), ...(alsoContact ? [alsoContact] : [])])];
    const completion = completionOf(NEW_TASK, input);
    await assertRelations(store, input);
    const now = nowSeconds();
    const doc = await events.created(store, () => store.tasks.insert({
      owner: input.owner_id ?? caller._id,
      subject: input.subject,
      type: input.type,
      priority_type: input.priority_type,
      due: input.due,
      ...completion,
      contacts,
      notes: input.notes ?? [],
      created_time: now,
      updated_time: now,
    }));
    return shown(store, await dropDeletedContacts(store, store.tasks, doc));
  }

  return {
    create,

    /** T8: a task related to the contact with this email (400 and nothing created when none has it). */
    async createForEmail(store: AccountStore, caller: DomainUserDoc, email: string, input: TaskInput): Promise<ShownTask> {
      const contact = await contactService.requireByEmail(store, email);
      return create(store, caller, input, contact._id);
    },

    /** T9 and partial-update: the sent fields replace the stored ones, checked against the stored task. */
    async update(store: AccountStore, id: number, input: TaskChanges): Promise<ShownTask> {
      await assertRelations(store, input);
      const { owner_id, status, progress, is_complete, subject, type, priority_type, due, contacts, notes } = input;
      const plain = { subject, type, priority_type, due, contacts, notes, ...(owner_id !== undefined && { owner: owner_id }) };
      const sent = Object.fromEntries(Object.entries(plain).filter(([, value]) => value !== undefined));
      const doc = await events.updated(store, () =>
        store.tasks.updateByRevision(id, (current) => ({
          ...sent,
          ...completionOf(current, { status, progress, is_complete }),
          updated_time: nowSeconds(),
        })),
      );
      if (!doc) throw taskNotFound(id);
      return shown(store, await dropDeletedContacts(store, store.tasks, doc));
    },

    /** T6; null when the account has no such task. */
    async get(store: AccountStore, id: number): Promise<ShownTask | null> {
      const doc = await store.tasks.get(id);
      return doc && shown(store, doc);
    },

    async remove(store: AccountStore, id: number): Promise<void> {
      await events.deleted(store, id, async () => (await store.tasks.remove(id)).deletedCount > 0);
    },

    /** T1: pending = not completed. */
    pending: (store: AccountStore, params: PageParams) => list(store, { is_complete: false }, params, 'pending'),

    /** T2. */
    all: (store: AccountStore, params: PageParams) => list(store, {}, params, 'all'),

    /** T3: pending tasks due from the start of today (UTC) to the end of the day `days` days later. */
    dueWithin(store: AccountStore, days: number, params: PageParams): Promise<TaskPage> {
      const today = Math.floor(nowSeconds() / DAY_SECONDS) * DAY_SECONDS;
      const due = { $gte: today, $lt: today + (days + 1) * DAY_SECONDS };
      return list(store, { is_complete: false, due }, params, `days:${days}`);
    },

    /** T4. */
    ofOwner: (store: AccountStore, owner: number, params: PageParams) => list(store, { owner }, params, 'owner'),

    /** T5. */
    filtered(store: AccountStore, query: TaskFilter): Promise<TaskPage> {
      const { type, owner, pending, start_time, end_time, ...params } = query;
      const due = { ...(start_time !== undefined && { $gte: start_time }), ...(end_time !== undefined && { $lte: end_time }) };
      const filter = {
        ...(type && { type }),
        ...(owner !== undefined && { owner }),
        ...(pending !== undefined && { is_complete: !pending }),
        ...(Object.keys(due).length > 0 && { due }),
      };
      return list(store, filter, params, 'based');
    },

    /** C10. */
    ofContact: (store: AccountStore, contactId: number, params: PageParams) => list(store, { contacts: contactId }, params, 'contact', BY_DUE_LATEST_FIRST),
  };
}

export type TaskService = ReturnType<typeof taskService>;
