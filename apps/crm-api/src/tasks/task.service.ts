import { HttpError, validationFailed } from '@lib/errors';
import { idSequence, insertWithSequenceId, updateByRevision } from '@lib/mongo';
import type { SortKey } from '@lib/paging';
import type { Connection } from 'mongoose';
import type { AccountService } from '../accounts/account.service';
import type { DomainUserDoc } from '../accounts/domain-user.model';
import type { ContactLinks } from '../contact-links';
import type { CrmPager } from '../paging';
import { noteModel } from '../notes/note.model';
import type { Page } from '../paging';
import { resolveCompletion, type Completion, type SentCompletion } from './task-completion';
import { taskModel, type TaskDoc } from './task.model';
import type { TaskChanges, TaskFilter, TaskInput } from './task.schemas';
import { nowSeconds } from '../epoch';

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

export function taskService(connection: Connection, options: { pager: CrmPager; links: ContactLinks; accounts: AccountService }) {
  const Task = taskModel(connection);
  const ids = idSequence(connection, 'tasks');
  const Note = noteModel(connection);
  const { pager, links, accounts } = options;

  /** Checks the related contacts, notes and owner that a write names (400 naming the field). */
  async function assertRelations(account: number, input: Pick<TaskChanges, 'contacts' | 'notes' | 'owner_id'>): Promise<void> {
    if (input.contacts?.length) await links.assertExist(account, input.contacts, 'contacts');
    if (input.notes?.length) {
      const found = await Note.countDocuments({ account, _id: { $in: input.notes } });
      if (found !== input.notes.length) throw validationFailed([{ field: 'notes', message: `names a note that is not in this account (${input.notes.join(', ')})` }]);
    }
    if (input.owner_id !== undefined && (await accounts.usersById(account, [input.owner_id])).length === 0) {
      throw validationFailed([{ field: 'owner_id', message: `names no user of this account (${input.owner_id})` }]);
    }
  }

  const list = (account: number, filter: Record<string, unknown>, params: PageParams, scope: string, order = BY_DUE): Promise<Page<TaskDoc>> =>
    pager.page(Task, { account, ...filter }, params, `tasks:${scope}:${account}:${JSON.stringify(filter)}`, order);

  return {
    /** T7, T8 (`alsoContact` is the contact of the email). */
    async create(caller: DomainUserDoc, input: TaskInput, alsoContact?: number): Promise<TaskDoc> {
      const account = caller.account;
      const contacts = [...new Set([...(input.contacts ?? []), ...(alsoContact ? [alsoContact] : [])])];
      const completion = completionOf(NEW_TASK, input);
      await assertRelations(account, input);
      const now = nowSeconds();
      const doc = await insertWithSequenceId(Task, ids, (id) => ({
        _id: id,
        account,
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
      }) as TaskDoc);
      return links.dropDeleted(Task, doc);
    },

    /** T9 and partial-update: the sent fields replace the stored ones, checked against the stored task. */
    async update(account: number, id: number, input: TaskChanges): Promise<TaskDoc> {
      await assertRelations(account, input);
      const { owner_id, status, progress, is_complete, subject, type, priority_type, due, contacts, notes } = input;
      const plain = { subject, type, priority_type, due, contacts, notes, ...(owner_id !== undefined && { owner: owner_id }) };
      const sent = Object.fromEntries(Object.entries(plain).filter(([, value]) => value !== undefined));
      const doc = await updateByRevision(Task, { _id: id, account }, (current) => ({
        ...sent,
        ...completionOf(current, { status, progress, is_complete }),
        updated_time: nowSeconds(),
      }));
      if (!doc) throw taskNotFound(id);
      return links.dropDeleted(Task, doc);
    },

    get: (account: number, id: number) => Task.findOne({ _id: id, account }).lean<TaskDoc>(),

    async remove(account: number, id: number): Promise<void> {
      await Task.deleteOne({ _id: id, account });
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
