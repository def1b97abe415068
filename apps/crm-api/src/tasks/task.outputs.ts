import { xmlList } from '@lib/routing';
import { z } from '@lib/validation';
import { XML_NAMES } from '../http/xml-names';
import { userOutput } from '../accounts/user.outputs';
import { contactOutput } from '../contacts/contact.outputs';
import { PRIORITY_TYPES, TASK_STATUSES, TASK_TYPES } from './task.model';

/** Response schemas, for the OpenAPI document. */
export const taskOutput = z.strictObject({
  id: z.number().int(),
  subject: z.string(),
  type: z.enum(TASK_TYPES),
  priority_type: z.enum(PRIORITY_TYPES),
  due: z.number().int().meta({ description: 'epoch seconds' }),
  status: z.enum(TASK_STATUSES),
  progress: z.number().int().min(0).max(100),
  is_complete: z.boolean().meta({ description: 'true exactly when status is COMPLETED' }),
  contacts: z.array(contactOutput),
  notes: z.array(z.string()).meta({ description: 'Ids of the related notes' }),
  owner_id: z.number().int(),
  taskOwner: userOutput.optional(),
  created_time: z.number().int().meta({ description: 'epoch seconds' }),
  updated_time: z.number().int().meta({ description: 'epoch seconds' }),
  entity_type: z.literal('task'),
}).meta({ id: 'Task' });

export const taskListOutput = xmlList(
  taskOutput.extend({
    count: z.number().int().optional().meta({ description: 'On the first item: number of all matching tasks' }),
    cursor: z.string().optional().meta({ description: 'On the last item when another page exists' }),
  }),
  XML_NAMES.task.list,
);
