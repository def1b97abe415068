import { HttpError, validationFailed } from '@lib/errors';
import type { SortKey } from '@lib/paging';
import type { AccountService } from '../accounts/account.service';
import type { DomainUserDoc } from '../accounts/domain-user.model';
import type { ContactLinks } from '../contacts/contact-links';
import type { NoteRepository } from '../notes/note.repository';
import type { CrmPager, Page } from '../paging';
import type { ForAccount, ScopedFilter } from '../store/account-scope';
import { resolveCompletion, type Completion, type SentCompletion } from './task-completion';
import type { TaskDoc } from './task.model';
import type { TaskRepository } from './task.repository';
import type { TaskChanges, TaskFilter, TaskInput } from './task.schemas';
import { nowSeconds } from '../input/epoch';

type PageParams = { page_size: number; cursor?: string };

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

export interface TaskServiceDeps {
  tasks: ForAccount<TaskRepository>;
  /** Tasks relate notes. */
  notes: ForAccount<NoteRepository>;
  pager: CrmPager;
  links: ContactLinks;
  accounts: AccountService;
}

export function taskService(deps: TaskServiceDeps) {
  const { tasks, pager, links, accounts } = deps;

  /** Checks the related contacts, notes and owner that a write names (400 naming the field). */
  async function assertRelations(account: number, input: Pick<TaskChanges, 'contacts' | 'notes' | 'owner_id'>): Promise<void> {
    if (input.contacts?.length) await links.assertExist(account, input.contacts, 'contacts');
    if (input.notes?.length) {
      if (!(await deps.notes(account).allExist(input.notes))) throw validationFailed([{ field: 'notes', message: `names a note that is not in this account (${input.notes.join(', ')})` }]);
    }
    if (input.owner_id !== undefined && (await accounts.usersById(account, [input.owner_id])).length === 0) {
      throw validationFailed([{ field: 'owner_id', message: `names no user of this account (${input.owner_id})` }]);
    }
  }

  const list = (account: number, filter: ScopedFilter, params: PageParams, key: string, order = BY_DUE): Promise<Page<TaskDoc>> =>
    tasks(account).list(pager, filter, params, key, order);

  return {
    /** T7, T8 (`alsoContact` is the contact of the email). */
    async create(caller: DomainUserDoc, input: TaskInput, alsoContact?: number): Promise<TaskDoc> {
      const account = caller.account;
      const contacts = [...new Set([...(input.contacts ?? []), ...(alsoContact ? [alsoContact] : [])])];
      const completion = completionOf(NEW_TASK, input);
      await assertRelations(account, input);
      const now = nowSeconds();
      const doc = await tasks(account).insert({
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
      });
      return links.dropDeleted(tasks(account), doc);
    },

    /** T9 and partial-update: the sent fields replace the stored ones, checked against the stored task. */
    async update(account: number, id: number, input: TaskChanges): Promise<TaskDoc> {
      await assertRelations(account, input);
      const { owner_id, status, progress, is_complete, subject, type, priority_type, due, contacts, notes } = input;
      const plain = { subject, type, priority_type, due, contacts, notes, ...(owner_id !== undefined && { owner: owner_id }) };
      const sent = Object.fromEntries(Object.entries(plain).filter(([, value]) => value !== undefined));
      const doc = await tasks(account).updateByRevision(id, (current) => ({
        ...sent,
        ...completionOf(current, { status, progress, is_complete }),
        updated_time: nowSeconds(),
      }));
      if (!doc) throw taskNotFound(id);
      return links.dropDeleted(tasks(account), doc);
    },

    get: (account: number, id: number) => tasks(account).get(id),

    async remove(account: number, id: number): Promise<void> {
      await tasks(account).remove(id);
    },

    /** T1: pending = not completed. */
    pending: (account: number, params: PageParams) => list(account, { is_complete: false }, params, 'pending'),

    /** T2. */
    all: (account: number, params: PageParams) => list(account, {}, params, 'all'),

    /** T3: pending tasks due from the start of today (UTC) to the end of the day `days` days later. */
    dueWithin(account: number, days: number, params: PageParams): Promise<Page<TaskDoc>> {
      const today = Math.floor(nowSeconds() / DAY_SECONDS) * DAY_SECONDS;
      const due = { $gte: today, $lt: today + (days + 1) * DAY_SECONDS };
      return list(account, { is_complete: false, due }, params, `days:${days}`);
    },

    /** T4. */
    ofOwner: (account: number, owner: number, params: PageParams) => list(account, { owner }, params, 'owner'),

    /** T5. */
    filtered(account: number, query: TaskFilter): Promise<Page<TaskDoc>> {
      const { type, owner, pending, start_time, end_time, ...params } = query;
      const due = { ...(start_time !== undefined && { $gte: start_time }), ...(end_time !== undefined && { $lte: end_time }) };
      const filter = {
        ...(type && { type }),
        ...(owner !== undefined && { owner }),
        ...(pending !== undefined && { is_complete: !pending }),
        ...(Object.keys(due).length > 0 && { due }),
      };
      return list(account, filter, params, 'based');
    },

    /** C10. */
    ofContact: (account: number, contactId: number, params: PageParams) => list(account, { contacts: contactId }, params, 'contact', BY_DUE_LATEST_FIRST),
  };
}

export type TaskService = ReturnType<typeof taskService>;
