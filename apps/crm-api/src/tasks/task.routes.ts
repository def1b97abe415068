import { XML_NAMES } from '../http/xml-names';
import { validationFailed } from '@lib/errors';
import { xmlRoot, type AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import { BODY_LIMITS } from '../http/body-limits';
import { commonErrors, notFoundError } from '../http/errors.outputs';
import { pageReply } from '../http/page-reply';
import { TASK_PAGE } from './task.paging';
import { taskListOutput, taskOutput } from './task.outputs';
import { shownTaskView } from './task.presenter';
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
const route = defineRoute.group({ auth: 'basic', tags: TAGS, responses: commonErrors });
const one = { description: 'The task, with its contacts as contact objects', schema: xmlRoot(taskOutput, XML_NAMES.task.root) };
const list = { description: 'Tasks: count on the first, cursor on the last when more follow (an empty list when none)', schema: taskListOutput };
const DUE_ORDER = 'Ordered by due date (earliest first), then id.';

function refuseId(body: TaskInput): void {
  if (body.id !== undefined) throw validationFailed([{ field: 'id', message: 'must not be sent when creating; use PUT /dev/api/tasks to update' }]);
}

export function taskRoutes(tasks: TaskService): AnyRoute[] {
  return [
    route.get('/dev/api/tasks', {
      summary: 'T1: pending (not completed) tasks of all users of the account',
      description: DUE_ORDER,
      request: { query: wholeListQuery },
      responses: { 200: list },
      handler: async ({ query, store, media }) => pageReply(media, await tasks.pending(store, query), TASK_PAGE),
    }),
    route.get('/dev/api/tasks/all', {
      summary: 'T2: pending and completed tasks of all users of the account',
      description: DUE_ORDER,
      request: { query: wholeListQuery },
      responses: { 200: list },
      handler: async ({ query, store, media }) => pageReply(media, await tasks.all(store, query), TASK_PAGE),
    }),
    route.get('/dev/api/tasks/pending/:days', {
      summary: 'T3: pending tasks due from the start of today (UTC) to the end of the day `days` days from today',
      description: `0: due today; 1: today or tomorrow. Overdue tasks of earlier days are not included. ${DUE_ORDER}`,
      request: { params: daysParams, query: wholeListQuery },
      responses: { 200: list },
      handler: async ({ params, query, store, media }) => pageReply(media, await tasks.dueWithin(store, params.days, query), TASK_PAGE),
    }),
    route.get('/dev/api/tasks/my/tasks', {
      summary: 'T4: all tasks owned by the caller',
      description: DUE_ORDER,
      request: { query: wholeListQuery },
      responses: { 200: list },
      handler: async ({ query, user, store, media }) => pageReply(media, await tasks.ofOwner(store, user._id, query), TASK_PAGE),
    }),
    route.get('/dev/api/tasks/based', {
      summary: 'T5: tasks filtered by type, owner (user id), pending (true/false) and due range, paged',
      description: `Every filter is optional; they combine with "and". ${DUE_ORDER}`,
      request: { query: taskFilterQuery },
      responses: { 200: list },
      handler: async ({ query, store, media }) => pageReply(media, await tasks.filtered(store, query), TASK_PAGE),
    }),
    route.get('/dev/api/contacts/:contact_id/tasks/sort', {
      summary: 'C10: tasks related to the contact, latest due date first',
      request: { params: contactTasksParams, query: wholeListQuery },
      responses: { 200: list },
      handler: async ({ params, query, store, media }) => pageReply(media, await tasks.ofContact(store, params.contact_id, query), TASK_PAGE),
    }),
    route.post('/dev/api/tasks', {
      summary: 'T7: create a task',
      request: { body: taskInput, bodyLimit: BODY_LIMITS.records },
      responses: { 200: one },
      handler: async ({ body, user, store }) => {
        refuseId(body);
        return { status: 200, body: shownTaskView(await tasks.create(store, user, body)) };
      },
    }),
    route.post('/dev/api/tasks/email/:email', {
      summary: 'T8: create a task related to the contact with this email',
      description: 'An email no contact of the account has is a 400 and nothing is created.',
      request: { params: emailParams, body: taskInput, bodyLimit: BODY_LIMITS.records },
      responses: { 200: one },
      handler: async ({ params, body, user, store }) => {
        refuseId(body);
        return { status: 200, body: shownTaskView(await tasks.createForEmail(store, user, params.email, body)) };
      },
    }),
    route.put('/dev/api/tasks', {
      summary: 'T9: update the task with the id in the body (subject, type, priority_type and due required)',
      description: 'The sent fields replace the stored ones; optional fields not sent stay as stored.',
      request: { body: taskUpdateInput, bodyLimit: BODY_LIMITS.records },
      responses: { 200: one, 404: notFoundError },
      handler: async ({ body: { id, ...changes }, store }) => ({ status: 200, body: shownTaskView(await tasks.update(store, id, changes)) }),
    }),
    route.put('/dev/api/tasks/partial-update', {
      summary: 'Change only the sent fields of the task with the id in the body',
      request: { body: taskPatchInput, bodyLimit: BODY_LIMITS.records },
      responses: { 200: one, 404: notFoundError },
      handler: async ({ body: { id, ...changes }, store }) => ({ status: 200, body: shownTaskView(await tasks.update(store, id, changes)) }),
    }),
    route.get('/dev/api/tasks/:id', {
      summary: 'T6: one task',
      request: { params: taskParams },
      responses: { 200: one, 204: { description: 'No task with that id' } },
      handler: async ({ params, store }) => {
        const found = await tasks.get(store, params.id);
        return found ? { status: 200, body: shownTaskView(found) } : { status: 204 };
      },
    }),
    route.delete('/dev/api/tasks/:id', {
      summary: 'T10: delete a task',
      request: { params: taskParams },
      responses: { 204: { description: 'Deleted (or there was no such task)' } },
      handler: async ({ params, store }) => {
        await tasks.remove(store, params.id);
        return { status: 204 };
      },
    }),
  ];
}
