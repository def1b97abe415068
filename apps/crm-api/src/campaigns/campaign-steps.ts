import { HttpError } from '@lib/errors';
import { traceCarrier } from '@lib/http/tracing';
import { withOwners } from '../contacts/contact-links';
import { contactViews } from '../contacts/contact.presenter';
import type { ContactService } from '../contacts/contact.service';
import { nowSeconds } from '../input/epoch';
import type { AccountStore } from '../store/crm-store';
import type { TaskService } from '../tasks/task.service';
import { newEventId } from '../webhooks/ids';
import { pendingDelivery } from '../webhooks/pending-delivery';
import { stepsRun } from './campaign-metrics';
import { UNIT_SECONDS, type EnrolmentDoc, type EnrolmentStatus, type StepDoc, type WorkflowDoc } from './campaign.model';

/** The event a WEBHOOK step delivers (signed and retried as every webhook delivery). */
export const CAMPAIGN_STEP_EVENT = 'campaign.step';

/** The longest outcome an enrolment's log keeps (a skipped step's reason is cut there). */
const OUTCOME_MAX = 200;

/** Where an enrolment stands after a step: its status and when its next step is due. */
export interface StepResult {
  status: EnrolmentStatus;
  step: number;
  next_run_at: Date | null;
}

/** The claim was lost (the enrolment removed, unsubscribed, deleted, or taken by another worker): nothing of the step is stored. */
class ClaimLost extends Error {}

export interface CampaignStepDeps {
  contacts: ContactService;
  tasks: TaskService;
  /** Told after a commit that stored a webhook delivery, with its webhook (the delivery worker of this process looks at once; the outbox cap is checked). */
  delivered?: (webhooks: number[]) => void;
}

/**
 * Runs one step of one enrolment, once: the step's writes (a tag, the score, a task, a webhook
 * delivery, with the webhook events they record) and the enrolment's move to the next step are one
 * MongoDB transaction, which first reads the enrolment again and goes on only if it is still active,
 * at that step and claimed by this worker. A crash before the commit stores nothing (the next claim
 * runs the step); after it, the step is done and the enrolment past it: no step runs twice, whatever
 * the number of replicas. A removal meets the transaction on the enrolment's document: one of the two
 * waits for the other, and a removed enrolment runs no further step.
 */
export function campaignSteps({ contacts, tasks, delivered }: CampaignStepDeps) {
  /** Performs the step for the enrolment's contact; its outcome for the log. */
  async function perform(store: AccountStore, workflow: WorkflowDoc, enrolment: EnrolmentDoc, step: StepDoc, index: number): Promise<{ outcome: string; waitMs?: number; delivery?: number }> {
    const contact = enrolment.contact;
    switch (step.type) {
      case 'ADD_TAG':
      case 'REMOVE_TAG':
        await contacts.changeTags(store, contact, [step.tag ?? ''], step.type === 'ADD_TAG' ? 'add' : 'remove');
        return { outcome: 'done' };
      case 'ADD_SCORE':
        await contacts.addScoreTo(store, contact, step.score ?? 0);
        return { outcome: 'done' };
      case 'CREATE_TASK': {
        const owner = await store.users.get(workflow.creator);
        if (!owner) return { outcome: 'skipped: the workflow\'s maker is no longer a user' };
        const task = await tasks.create(
          store,
          owner,
          { subject: step.subject ?? workflow.name, type: step.task_type ?? 'OTHER', priority_type: step.priority_type ?? 'NORMAL', due: nowSeconds() + (step.due_in_days ?? 1) * UNIT_SECONDS.DAYS },
          contact,
        );
        return { outcome: `done: task ${task.item._id}` };
      }
      case 'WAIT':
        return { outcome: 'done', waitMs: (step.duration ?? 0) * UNIT_SECONDS[step.unit ?? 'DAYS'] * 1000 };
      case 'WEBHOOK': {
        const webhook = step.webhook_id === undefined ? null : await store.webhooks.get(step.webhook_id);
        if (!webhook) return { outcome: `skipped: webhook ${step.webhook_id} is gone` };
        if (!webhook.enabled) return { outcome: `skipped: webhook ${webhook._id} is disabled` };
        const [doc] = await store.contacts.byIds([contact]);
        const shown = doc ? contactViews([doc], (await withOwners(store, [doc])).owners)[0] : null;
        const resource = `campaign:${enrolment._id}`;
        const seqs = await store.outbox.nextSeqs([resource]);
        const now = new Date();
        const body = JSON.stringify({ eventName: CAMPAIGN_STEP_EVENT, eventData: { workflow: { id: workflow._id, name: workflow.name }, step: index, enrolment_id: enrolment._id, contact: shown } });
        await store.outbox.insert([
          pendingDelivery({ webhook: webhook._id, event_id: newEventId(now.getTime()), event: CAMPAIGN_STEP_EVENT, resource, seq: seqs.get(resource) ?? 0, body, trace: traceCarrier() ?? null, replay_of: null }, now),
        ]);
        return { outcome: `done: delivery to webhook ${webhook._id}`, delivery: webhook._id };
      }
    }
  }

  /** One transaction: re-check the claim, perform the step (or only log why it is skipped), move on. */
  function attempt(store: AccountStore, id: number, index: number, token: string, skipped?: string): Promise<StepResult & { delivery?: number; ran?: { type: string; outcome: string } }> {
    return store.transaction(async () => {
      const enrolment = await store.enrolments.get(id);
      if (!enrolment || enrolment.status !== 'ACTIVE' || enrolment.step !== index || enrolment.lock_token !== token) throw new ClaimLost();
      const workflow = await store.workflows.get(enrolment.workflow);
      if (!workflow) throw new ClaimLost(); // deleted: its enrolments go with it
      const step = workflow.steps[index];
      const done = { status: 'DONE' as const, step: index, next_run_at: null };
      if (!step) {
        // the workflow was shortened past this enrolment: it is done
        await store.enrolments.advance(enrolment, token, done, { step: index, type: 'WAIT', at: nowSeconds(), outcome: 'done: no steps left' }, nowSeconds());
        return { ...done };
      }
      const result = skipped === undefined ? await perform(store, workflow, enrolment, step, index) : { outcome: `skipped: ${skipped}` };
      const next = index + 1;
      const status: EnrolmentStatus = next >= workflow.steps.length ? 'DONE' : 'ACTIVE';
      const moved = { status, step: next, next_run_at: status === 'DONE' ? null : new Date(Date.now() + ('waitMs' in result ? (result.waitMs ?? 0) : 0)) };
      const written = await store.enrolments.advance(enrolment, token, moved, { step: index, type: step.type, at: nowSeconds(), outcome: result.outcome.slice(0, OUTCOME_MAX) }, nowSeconds());
      if (!written.modifiedCount) throw new ClaimLost();
      return { ...moved, delivery: 'delivery' in result ? result.delivery : undefined, ran: { type: step.type, outcome: result.outcome.startsWith('skipped') ? 'skipped' : 'done' } };
    });
  }

  return {
    /**
     * Runs step `index` of the enrolment claimed with `token`; where it stands after, or null when
     * the claim was lost (nothing stored). A step the contact cannot take (a 4xx of the service it
     * calls: a 101st tag, a score below 0) is logged as skipped and the enrolment moves on.
     */
    async run(store: AccountStore, id: number, index: number, token: string): Promise<StepResult | null> {
      try {
        let result: StepResult & { delivery?: number; ran?: { type: string; outcome: string } };
        try {
          result = await attempt(store, id, index, token);
        } catch (err) {
          if (!(err instanceof HttpError) || err.status >= 500) throw err;
          result = await attempt(store, id, index, token, err.message);
        }
        if (result.ran) stepsRun.inc(result.ran);
        if (result.delivery !== undefined) delivered?.([result.delivery]);
        return { status: result.status, step: result.step, next_run_at: result.next_run_at };
      } catch (err) {
        if (err instanceof ClaimLost) return null;
        throw err;
      }
    },
  };
}

export type CampaignSteps = ReturnType<typeof campaignSteps>;
