import type { z } from '@lib/validation';
import type { DomainUserDoc } from '../accounts/domain-user.model';
import type { EnrolmentDoc, StepDoc, WorkflowDoc } from './campaign.model';
import type { enrolmentOutput, stepOutput, workflowOutput } from './campaign.outputs';

export type WorkflowView = z.input<typeof workflowOutput>;
export type EnrolmentView = z.input<typeof enrolmentOutput>;

/** A step's stored fields, in the schema's order, absent ones left out. */
export function stepView(step: StepDoc): z.input<typeof stepOutput> {
  const { type, tag, score, subject, task_type, priority_type, due_in_days, duration, unit, webhook_id } = step;
  const fields = { tag, score, subject, task_type, priority_type, due_in_days, duration, unit, webhook_id };
  return { type, ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== null)) };
}

/** The wire shape of a workflow, with its maker's name (read by the service). */
export function workflowView(doc: WorkflowDoc, users: readonly DomainUserDoc[]): WorkflowView {
  const creator = users.find((user) => user._id === doc.creator);
  return {
    id: doc._id,
    name: doc.name,
    steps: doc.steps.map(stepView),
    domainUserId: doc.creator,
    creatorName: creator?.name ?? '',
    created_time: doc.created_time,
    updated_time: doc.updated_time,
  };
}

export const workflowViews = (docs: WorkflowDoc[], users: DomainUserDoc[]) => docs.map((doc) => workflowView(doc, users));

export function enrolmentView(doc: EnrolmentDoc): EnrolmentView {
  return {
    id: doc._id,
    workflow_id: doc.workflow,
    contact_id: doc.contact,
    status: doc.status,
    step: doc.step,
    next_run_at: doc.next_run_at ? new Date(doc.next_run_at).getTime() : null,
    log: doc.log.map(({ step, type, at, outcome }) => ({ step, type, at, outcome })),
    created_time: doc.created_time,
    updated_time: doc.updated_time,
  };
}

export const enrolmentViews = (docs: EnrolmentDoc[]) => docs.map(enrolmentView);
