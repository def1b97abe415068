import { XML_NAMES } from '../http/xml-names';
import { validationFailed } from '@lib/errors';
import { xmlRoot, xmlList, type AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import { BODY_LIMITS } from '../http/body-limits';
import type { Request, Response } from 'express';
import type { ContactService } from '../contacts/contact.service';
import { commonErrors, notFoundError } from '../http/errors.outputs';
import type { Page } from '../paging';
import { reply, sendNoContent } from '../http/reply';
import { sendPage } from '../http/send-page';
import { TASK_READING } from './task.paging';
import type { TaskDoc } from './task.model';
import { taskListOutput, taskOutput } from './task.outputs';
import type { TaskPresenter } from './task.presenter';
import {
  contactTasksParams,
  daysParams,
  emailParams,
  taskFilterQuery,
  taskInput,
  taskParams,
  taskPatchInput,
  taskUpdateInput,
  wholeListQuery,
  type TaskInput,
} from './task.schemas';
import type { TaskService } from './task.service';

const TAGS = ['tasks'];
const one = { description: 'The task, with its contacts as contact objects', schema: xmlRoot(taskOutput, XML_NAMES.task.root) };
const list = { description: 'Tasks: count on the first, cursor on the last when more follow (an empty list when none)', schema: xmlList(taskListOutput.element, XML_NAMES.tasks) };
const DUE_ORDER = 'Ordered by due date (earliest first), then id.';

function refuseId(body: TaskInput): void {
  if (body.id !== undefined) throw validationFailed([{ field: 'id', message: 'must not be sent when creating; use PUT /dev/api/tasks to update' }]);
}

export function taskRoutes(tasks: TaskService, contacts: ContactService, present: TaskPresenter): AnyRoute[] {
  const sendOne = async (req: Request, res: Response, doc: TaskDoc) => reply(req, res, await present.one(doc), XML_NAMES.task);
  const sendList = (req: Request, res: Response, page: Page<TaskDoc>) => sendPage(req, res, page, { reading: TASK_READING, present: present.many, xml: XML_NAMES.tasks });

  return [
    defineRoute({
      method: 'get',
      path: '/dev/api/tasks',
      auth: 'basic',
      summary: 'T1: pending (not completed) tasks of all users of the account',
      description: DUE_ORDER,
      tags: TAGS,
      request: { query: wholeListQuery },
      responses: { 200: list, ...commonErrors },
      handler: async ({ query, user, req }, res) => sendList(req, res, await tasks.pending(user.account, query)),
    }),
    defineRoute({
      method: 'get',
      path: '/dev/api/tasks/all',
      auth: 'basic',
      summary: 'T2: pending and completed tasks of all users of the account',
      description: DUE_ORDER,
      tags: TAGS,
      request: { query: wholeListQuery },
      responses: { 200: list, ...commonErrors },
      handler: async ({ query, user, req }, res) => sendList(req, res, await tasks.all(user.account, query)),
    }),
    defineRoute({
      method: 'get',
      path: '/dev/api/tasks/pending/:days',
      auth: 'basic',
      summary: 'T3: pending tasks due from the start of today (UTC) to the end of the day `days` days from today',
      description: `0: due today; 1: today or tomorrow. Overdue tasks of earlier days are not included. ${DUE_ORDER}`,
      tags: TAGS,
      request: { params: daysParams, query: wholeListQuery },
      responses: { 200: list, ...commonErrors },
      handler: async ({ params, query, user, req }, res) => sendList(req, res, await tasks.dueWithin(user.account, params.days, query)),
    }),
    defineRoute({
      method: 'get',
      path: '/dev/api/tasks/my/tasks',
      auth: 'basic',
      summary: 'T4: all tasks owned by the caller',
      description: DUE_ORDER,
      tags: TAGS,
      request: { query: wholeListQuery },
      responses: { 200: list, ...commonErrors },
      handler: async ({ query, user, req }, res) => sendList(req, res, await tasks.ofOwner(user.account, user._id, query)),
    }),
    defineRoute({
      method: 'get',
      path: '/dev/api/tasks/based',
      auth: 'basic',
      summary: 'T5: tasks filtered by type, owner (user id), pending (true/false) and due range, paged',
      description: `Every filter is optional; they combine with "and". ${DUE_ORDER}`,
      tags: TAGS,
      request: { query: taskFilterQuery },
      responses: { 200: list, ...commonErrors },
      handler: async ({ query, user, req }, res) => sendList(req, res, await tasks.filtered(user.account, query)),
    }),
    defineRoute({
      method: 'get',
      path: '/dev/api/contacts/:contact_id/tasks/sort',
      auth: 'basic',
      summary: 'C10: tasks related to the contact, latest due date first',
      tags: TAGS,
      request: { params: contactTasksParams, query: wholeListQuery },
      responses: { 200: list, ...commonErrors },
      handler: async ({ params, query, user, req }, res) => sendList(req, res, await tasks.ofContact(user.account, params.contact_id, query)),
    }),
    defineRoute({
      method: 'post',
      path: '/dev/api/tasks',
      auth: 'basic',
      summary: 'T7: create a task',
      tags: TAGS,
      request: { body: taskInput, bodyLimit: BODY_LIMITS.records },
      responses: { 200: one, ...commonErrors },
      handler: async ({ body, user, req }, res) => {
        refuseId(body);
        await sendOne(req, res, await tasks.create(user, body));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/dev/api/tasks/email/:email',
      auth: 'basic',
      summary: 'T8: create a task related to the contact with this email',
      description: 'An email no contact of the account has is a 400 and nothing is created.',
      tags: TAGS,
      request: { params: emailParams, body: taskInput, bodyLimit: BODY_LIMITS.records },
      responses: { 200: one, ...commonErrors },
      handler: async ({ params, body, user, req }, res) => {
        refuseId(body);
        const contact = await contacts.requireByEmail(user.account, params.email);
        await sendOne(req, res, await tasks.create(user, body, contact._id));
      },
    }),
    defineRoute({
      method: 'put',
      path: '/dev/api/tasks',
      auth: 'basic',
      summary: 'T9: update the task with the id in the body (subject, type, priority_type and due required)',
      description: 'The sent fields replace the stored ones; optional fields not sent stay as stored.',
      tags: TAGS,
      request: { body: taskUpdateInput, bodyLimit: BODY_LIMITS.records },
      responses: { 200: one, 404: notFoundError, ...commonErrors },
      handler: async ({ body, user, req }, res) => {
        const { id, ...changes } = body;
        await sendOne(req, res, await tasks.update(user.account, id, changes));
      },
    }),
    defineRoute({
      method: 'put',
      path: '/dev/api/tasks/partial-update',
      auth: 'basic',
      summary: 'Change only the sent fields of the task with the id in the body',
      tags: TAGS,
      request: { body: taskPatchInput, bodyLimit: BODY_LIMITS.records },
      responses: { 200: one, 404: notFoundError, ...commonErrors },
      handler: async ({ body, user, req }, res) => {
        const { id, ...changes } = body;
        await sendOne(req, res, await tasks.update(user.account, id, changes));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/dev/api/tasks/:id',
      auth: 'basic',
      summary: 'T6: one task',
      tags: TAGS,
      request: { params: taskParams },
      responses: { 200: one, 204: { description: 'No task with that id' }, ...commonErrors },
      handler: async ({ params, user, req }, res) => {
        const doc = await tasks.get(user.account, params.id);
        return doc ? sendOne(req, res, doc) : sendNoContent(res);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/dev/api/tasks/:id',
      auth: 'basic',
      summary: 'T10: delete a task',
      tags: TAGS,
      request: { params: taskParams },
      responses: { 204: { description: 'Deleted (or there was no such task)' }, ...commonErrors },
      handler: async ({ params, user }, res) => {
        await tasks.remove(user.account, params.id);
        sendNoContent(res);
      },
    }),
  ];
}
