import { insertTokenField } from '@lib/mongo';
import { Schema, type Connection, type Model } from 'mongoose';
import { PRIORITY_TYPES, TASK_TYPES, type PriorityType, type TaskType } from '../tasks/task.model';

/** The steps this service performs (no e-mail step: crm-api sends no e-mail). */
export const STEP_TYPES = ['ADD_TAG', 'REMOVE_TAG', 'ADD_SCORE', 'CREATE_TASK', 'WAIT', 'WEBHOOK'] as const;
export type StepType = (typeof STEP_TYPES)[number];
export const WAIT_UNITS = ['SECONDS', 'MINUTES', 'HOURS', 'DAYS'] as const;
export type WaitUnit = (typeof WAIT_UNITS)[number];
export const UNIT_SECONDS: Record<WaitUnit, number> = { SECONDS: 1, MINUTES: 60, HOURS: 3600, DAYS: 86_400 };

/** One step of a workflow, as stored: the fields of its type only. */
export interface StepDoc {
  type: StepType;
  /** ADD_TAG, REMOVE_TAG */
  tag?: string;
  /** ADD_SCORE: added to the lead score (negative: taken off; never below 0) */
  score?: number;
  /** CREATE_TASK */
  subject?: string;
  task_type?: TaskType;
  priority_type?: PriorityType;
  /** CREATE_TASK: the task is due this many days after the step runs */
  due_in_days?: number;
  /** WAIT */
  duration?: number;
  unit?: WaitUnit;
  /** WEBHOOK: a webhook of the account */
  webhook_id?: number;
}

/** A campaign (the original calls it a workflow): a named list of steps run for each enrolled contact. */
export interface WorkflowDoc {
  _id: number;
  account: number;
  name: string;
  steps: StepDoc[];
  /** The user who made it (the owner of the tasks its CREATE_TASK steps make). */
  creator: number;
  created_time: number;
  updated_time: number;
}

const stepSchema = new Schema<StepDoc>(
  {
    type: { type: String, required: true, enum: STEP_TYPES },
    tag: String,
    score: Number,
    subject: String,
    task_type: { type: String, enum: TASK_TYPES },
    priority_type: { type: String, enum: PRIORITY_TYPES },
    due_in_days: Number,
    duration: Number,
    unit: { type: String, enum: WAIT_UNITS },
    webhook_id: Number,
  },
  { _id: false },
);

const workflowSchema = new Schema<WorkflowDoc>(
  {
    _id: { type: Number, required: true },
    ...insertTokenField,
    account: { type: Number, required: true },
    name: { type: String, required: true },
    steps: { type: [stepSchema], default: [] },
    creator: { type: Number, required: true },
    created_time: { type: Number, required: true },
    updated_time: { type: Number, required: true },
  },
  { versionKey: false },
);
// GET /dev/api/workflows: the account's workflows in creation order (the keyset pager)
workflowSchema.index({ account: 1, created_time: 1, _id: 1 });
// user removal: the workflows a user made
workflowSchema.index({ account: 1, creator: 1 });

export function workflowModel(connection: Connection): Model<WorkflowDoc> {
  return connection.models.Workflow ?? connection.model<WorkflowDoc>('Workflow', workflowSchema, 'workflows');
}

/**
 * - `ACTIVE`: steps left; the next (`step`) runs at `next_run_at`;
 * - `DONE`: every step ran;
 * - `REMOVED`: taken off by remove-active-subscriber;
 * - `UNSUBSCRIBED`: taken off by campaigns/unsubscribe (a later enrolment in that workflow is refused).
 */
export const ENROLMENT_STATUSES = ['ACTIVE', 'DONE', 'REMOVED', 'UNSUBSCRIBED'] as const;
export type EnrolmentStatus = (typeof ENROLMENT_STATUSES)[number];

/** What one step did for one contact, as the enrolment's log shows it. */
export interface StepRun {
  step: number;
  type: StepType;
  /** epoch seconds */
  at: number;
  /** `done`, or `skipped: <why>` (a step the contact cannot take, such as a 101st tag) */
  outcome: string;
}

/** One contact in one workflow. */
export interface EnrolmentDoc {
  _id: number;
  account: number;
  workflow: number;
  contact: number;
  status: EnrolmentStatus;
  /** The index of the next step to run. */
  step: number;
  /** When the next step is due; null once the enrolment is no longer active. */
  next_run_at: Date | null;
  /** The worker's claim: no other worker takes the enrolment before this time. */
  lock_until: Date | null;
  lock_token: string | null;
  /** The last ENROLMENT_LOG_MAX steps run. */
  log: StepRun[];
  created_time: number;
  updated_time: number;
}

const stepRunSchema = new Schema<StepRun>({ step: Number, type: String, at: Number, outcome: String }, { _id: false });

const enrolmentSchema = new Schema<EnrolmentDoc>(
  {
    _id: { type: Number, required: true },
    ...insertTokenField,
    account: { type: Number, required: true },
    workflow: { type: Number, required: true },
    contact: { type: Number, required: true },
    status: { type: String, required: true, enum: ENROLMENT_STATUSES },
    step: { type: Number, required: true },
    next_run_at: { type: Date, default: null },
    lock_until: { type: Date, default: null },
    lock_token: { type: String, default: null },
    log: { type: [stepRunSchema], default: [] },
    created_time: { type: Number, required: true },
    updated_time: { type: Number, required: true },
  },
  { versionKey: false },
);
// one enrolment per contact and workflow, whatever the races (two enrol calls at once)
enrolmentSchema.index({ account: 1, workflow: 1, contact: 1 }, { unique: true });
// GET /dev/api/workflows/{id}/subscribers: a workflow's enrolments in creation order; a deleted workflow's enrolments
enrolmentSchema.index({ account: 1, workflow: 1, created_time: 1, _id: 1 });
// a deleted contact's enrolments; campaigns/unsubscribe (a contact's enrolments)
enrolmentSchema.index({ account: 1, contact: 1 });
// the worker: active enrolments due soonest (only active ones have a time)
enrolmentSchema.index({ next_run_at: 1 }, { partialFilterExpression: { status: 'ACTIVE' } });

export function enrolmentModel(connection: Connection): Model<EnrolmentDoc> {
  return connection.models.CampaignEnrolment ?? connection.model<EnrolmentDoc>('CampaignEnrolment', enrolmentSchema, 'campaign_enrolments');
}
