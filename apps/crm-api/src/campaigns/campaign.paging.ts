import type { DomainUserDoc } from '../accounts/domain-user.model';
import { readBatchFor, STORED_BYTES_PER_CHAR } from '../http/page-budget';
import { listNames, type ListAnswer } from '../http/page-reply';
import type { EnrolmentDoc, WorkflowDoc } from './campaign.model';
import { enrolmentList, workflowList } from './campaign.outputs';
import { STEPS_PER_WORKFLOW_MAX, WORKFLOW_NAME_MAX } from './campaign.schemas';
import { enrolmentViews, workflowViews, type EnrolmentView, type WorkflowView } from './campaign.view';
import { TASK_SUBJECT_MAX } from '../tasks/task.schemas';
import { ENROLMENT_LOG_MAX } from './enrolment.repository';

/** A workflow at its bounds as stored: its name and 50 task steps of 1,000 characters. */
const WORKFLOW_STORED_WORST = STORED_BYTES_PER_CHAR * (WORKFLOW_NAME_MAX + STEPS_PER_WORKFLOW_MAX * TASK_SUBJECT_MAX) + STEPS_PER_WORKFLOW_MAX * 256 + 1024;
const ENROLMENT_STORED_WORST = ENROLMENT_LOG_MAX * 200 + 1024;

export const WORKFLOW_PAGE: ListAnswer<WorkflowDoc, DomainUserDoc[], WorkflowView> = { reading: { readBatch: readBatchFor(WORKFLOW_STORED_WORST) }, view: workflowViews, xml: listNames(workflowList) };
export const ENROLMENT_PAGE: ListAnswer<EnrolmentDoc, undefined, EnrolmentView> = { reading: { readBatch: readBatchFor(ENROLMENT_STORED_WORST) }, view: enrolmentViews, xml: listNames(enrolmentList) };
