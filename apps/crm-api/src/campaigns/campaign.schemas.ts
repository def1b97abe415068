import { xmlRoot } from '@lib/routing';
import { pathId, text, z } from '@lib/validation';
import { tagName } from '../contacts/contact-rules';
import { idField, intField } from '../input/fields';
import { pageParams } from '../paging';
import { PRIORITY_TYPES, TASK_TYPES } from '../tasks/task.model';
import { TASK_SUBJECT_MAX } from '../tasks/task.schemas';
import { UNIT_SECONDS, WAIT_UNITS } from './campaign.model';

/** Bounds (apps/crm-api/README.md, "Campaigns (workflows)"; docs/RESILIENCE.md, "Bounds"). */
export const WORKFLOWS_PER_ACCOUNT_MAX = 100;
export const STEPS_PER_WORKFLOW_MAX = 50;
export const WORKFLOW_NAME_MAX = 100;
/** The longest WAIT step: 365 days. */
export const WAIT_MAX_SECONDS = 365 * UNIT_SECONDS.DAYS;
export const SCORE_STEP_MAX = 1_000_000;
export const TASK_DUE_DAYS_MAX = 3_650;
/** Workflows listed per page by default (GET /dev/api/workflows). */
export const WORKFLOW_PAGE_DEFAULT = 20;

const readOnly = z.unknown().optional();

const step = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('ADD_TAG'), tag: tagName }),
    z.strictObject({ type: z.literal('REMOVE_TAG'), tag: tagName }),
    z.strictObject({ type: z.literal('ADD_SCORE'), score: intField({ min: -SCORE_STEP_MAX, max: SCORE_STEP_MAX }).meta({ description: 'Added to the lead score; negative takes off (never below 0)' }) }),
    z.strictObject({
      type: z.literal('CREATE_TASK'),
      subject: text({ max: TASK_SUBJECT_MAX }),
      task_type: z.enum(TASK_TYPES).default('OTHER'),
      priority_type: z.enum(PRIORITY_TYPES).default('NORMAL'),
      due_in_days: intField({ min: 0, max: TASK_DUE_DAYS_MAX }).default(1).meta({ description: 'The task is due this many days after the step runs (default 1)' }),
    }),
    z
      .strictObject({ type: z.literal('WAIT'), duration: intField({ min: 1, max: WAIT_MAX_SECONDS }), unit: z.enum(WAIT_UNITS).default('DAYS') })
      .refine((wait) => wait.duration * UNIT_SECONDS[wait.unit] <= WAIT_MAX_SECONDS, { message: 'a wait lasts at most 365 days', path: ['duration'] }),
    z.strictObject({ type: z.literal('WEBHOOK'), webhook_id: idField.meta({ description: 'A webhook of the account: it receives a signed campaign.step delivery' }) }),
  ])
  .meta({ id: 'CampaignStepInput' });

const steps = z.array(step).min(1, 'must list at least one step').max(STEPS_PER_WORKFLOW_MAX, `at most ${STEPS_PER_WORKFLOW_MAX} steps`);
const name = text({ max: WORKFLOW_NAME_MAX });
const shown = { created_time: readOnly, updated_time: readOnly, domainUserId: readOnly, creatorName: readOnly, count: readOnly, cursor: readOnly };

/** POST /dev/api/workflows. */
export const workflowInput = xmlRoot(z.strictObject({ id: idField.optional(), name, steps, ...shown }), 'workflow');
export type WorkflowInput = z.output<typeof workflowInput>;
export type StepInput = z.output<typeof step>;

/** PUT /dev/api/workflows: the workflow with the id, renamed and with these steps. */
export const workflowUpdate = xmlRoot(z.strictObject({ id: idField, name, steps, ...shown }), 'workflow');
export type WorkflowUpdate = z.output<typeof workflowUpdate>;

export const workflowParams = z.strictObject({ id: pathId });
export const subscriberParams = z.strictObject({ workflow_id: pathId, contact_id: pathId });
export const workflowListQuery = z.strictObject(pageParams(WORKFLOW_PAGE_DEFAULT));
export const subscriberListQuery = z.strictObject(pageParams(WORKFLOW_PAGE_DEFAULT));

const email = z.string().min(1, 'is required').max(254);

/** POST /dev/api/campaigns/enroll/email: the original's form fields. */
export const enrollForm = z.strictObject({ email, 'workflow-id': idField });
/** POST /dev/api/campaigns/unsubscribe: from one workflow, or from all when `workflow-id` is absent. */
export const unsubscribeForm = z.strictObject({ email, 'workflow-id': idField.optional() });
