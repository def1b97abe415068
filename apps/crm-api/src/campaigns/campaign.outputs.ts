import { xmlList, xmlRoot } from '@lib/routing';
import { z } from '@lib/validation';
import { XML_NAMES } from '../http/xml-names';
import { PRIORITY_TYPES, TASK_TYPES } from '../tasks/task.model';
import { ENROLMENT_STATUSES, STEP_TYPES, WAIT_UNITS } from './campaign.model';

/** A step as stored: `type` and the fields of its type. */
export const stepOutput = z
  .strictObject({
    type: z.enum(STEP_TYPES),
    tag: z.string().optional(),
    score: z.number().int().optional(),
    subject: z.string().optional(),
    task_type: z.enum(TASK_TYPES).optional(),
    priority_type: z.enum(PRIORITY_TYPES).optional(),
    due_in_days: z.number().int().optional(),
    duration: z.number().int().optional(),
    unit: z.enum(WAIT_UNITS).optional(),
    webhook_id: z.number().int().optional(),
  })
  .meta({ id: 'CampaignStep' });

/** A workflow as the original lists it (id, name, times, domainUserId, creatorName), its steps in place of the editor's `rules`. */
export const workflowOutput = z
  .strictObject({
    id: z.number().int(),
    name: z.string(),
    steps: z.array(stepOutput),
    domainUserId: z.number().int().meta({ description: 'The user who made it' }),
    creatorName: z.string(),
    created_time: z.number().int().meta({ description: 'epoch seconds' }),
    updated_time: z.number().int().meta({ description: 'epoch seconds' }),
  })
  .meta({ id: 'Workflow' });

export const workflowOne = xmlRoot(workflowOutput, XML_NAMES.workflow.root);
export const workflowList = xmlList(
  workflowOutput.extend({
    count: z.number().int().optional().meta({ description: 'On the first item: number of all workflows' }),
    cursor: z.string().optional().meta({ description: 'On the last item when another page exists' }),
  }),
  XML_NAMES.workflow.list,
);

const stepRunOutput = z.strictObject({ step: z.number().int(), type: z.enum(STEP_TYPES), at: z.number().int().meta({ description: 'epoch seconds' }), outcome: z.string() });

/** One contact in one workflow. */
export const enrolmentOutput = z
  .strictObject({
    id: z.number().int(),
    workflow_id: z.number().int(),
    contact_id: z.number().int(),
    status: z.enum(ENROLMENT_STATUSES),
    step: z.number().int().meta({ description: 'Index of the next step to run (0 is the first)' }),
    next_run_at: z.number().int().nullable().meta({ description: 'epoch milliseconds when the next step is due; null when not active' }),
    log: z.array(stepRunOutput).meta({ description: 'The last 20 steps run, oldest first' }),
    created_time: z.number().int().meta({ description: 'epoch seconds' }),
    updated_time: z.number().int().meta({ description: 'epoch seconds' }),
  })
  .meta({ id: 'CampaignEnrolment' });

export const enrolmentOne = xmlRoot(enrolmentOutput, XML_NAMES.enrolment.root);
export const enrolmentList = xmlList(
  enrolmentOutput.extend({
    count: z.number().int().optional().meta({ description: 'On the first item: number of all enrolments of the workflow' }),
    cursor: z.string().optional().meta({ description: 'On the last item when another page exists' }),
  }),
  XML_NAMES.enrolment.list,
);
