import { pathId, queryEnum, queryInt, text, z } from '@lib/validation';
import { contactIdList, idList } from '../contacts/contact-links';
import { epochField, inOrder, MAX_EPOCH } from '../input/epoch';
import { idField, intField } from '../input/fields';
import { pageParams as pageParamsOf, wholeListQuery as wholeList } from '../paging';
import { PRIORITY_TYPES, TASK_STATUSES, TASK_TYPES } from './task.model';

/** T5: ten tasks a page unless asked (the default it always had). */
export const TASK_PAGE_DEFAULT = 10;
const pageParams = pageParamsOf(TASK_PAGE_DEFAULT);
/** A task's subject is its title. */
export const TASK_SUBJECT_MAX = 1_000;

/** Shown in responses; accepted back (so a fetched task can be sent unchanged) and ignored. */
const readOnly = z.unknown().optional();

const required = {
  subject: text({ max: TASK_SUBJECT_MAX }),
  type: z.enum(TASK_TYPES),
  priority_type: z.enum(PRIORITY_TYPES),
  due: epochField(),
};

const optional = {
  contacts: contactIdList.optional(),
  owner_id: idField.optional().meta({ description: 'A user of the account; default the caller' }),
  notes: idList('notes').optional().meta({ description: 'Ids of notes of the account' }),
  progress: intField({ min: 0, max: 100 }).optional(),
  status: z.enum(TASK_STATUSES).optional(),
  is_complete: z.boolean().optional(),
  created_time: readOnly,
  updated_time: readOnly,
  entity_type: readOnly,
  taskOwner: readOnly,
  count: readOnly,
  cursor: readOnly,
};

/** T7, T8: a new task. */
export const taskInput = z.strictObject({ id: idField.optional(), ...required, ...optional });
/** T9: the task with its id and required fields; optional fields not sent stay as stored. */
export const taskUpdateInput = z.strictObject({ id: idField, ...required, ...optional });
/** partial-update: only the sent fields change. */
export const taskPatchInput = z.strictObject({
  id: idField,
  subject: required.subject.optional(),
  type: required.type.optional(),
  priority_type: required.priority_type.optional(),
  due: required.due.optional(),
  ...optional,
});
export type TaskInput = z.output<typeof taskInput>;
export type TaskChanges = Omit<z.output<typeof taskPatchInput>, 'id'>;

const flag = z.enum(['true', 'false'], 'must be true or false').transform((value) => value === 'true');
const epochQuery = (description: string) => queryInt({ min: 0, max: MAX_EPOCH, description });

/** T5 filters: all optional and combined with "and". */
export const taskFilterQuery = z
  .strictObject({
    type: queryEnum(TASK_TYPES).optional(),
    owner: queryInt({ min: 1, max: Number.MAX_SAFE_INTEGER, description: 'User id of the owner' }).optional(),
    pending: flag.optional().meta({ description: 'true: only pending (not completed) tasks; false: only completed ones' }),
    start_time: epochQuery('Due at or after (epoch seconds)').optional(),
    end_time: epochQuery('Due at or before (epoch seconds)').optional(),
    ...pageParams,
  })
  .refine((q) => inOrder(q.start_time, q.end_time), {
    path: ['end_time'],
    message: 'must not be before start_time',
  });
export type TaskFilter = z.output<typeof taskFilterQuery>;

export const taskParams = z.strictObject({ id: pathId });
export const contactTasksParams = z.strictObject({ contact_id: pathId });
export { emailParams } from '../contacts/contact.schemas';
export const daysParams = z.strictObject({ days: queryInt({ min: 0, max: 3650, description: 'Days from today (0: due today)' }) });
export const wholeListQuery = wholeList;
