import { badRequest, HttpError, validationFailed } from '@lib/errors';
import { isDuplicateKey } from '@lib/mongo';
import type { DomainUserDoc } from '../accounts/domain-user.model';
import type { ContactDoc } from '../contacts/contact.model';
import { nowSeconds } from '../input/epoch';
import { shownAsIs, type PageParams, type Shown, type ShownPage } from '../paging';
import type { AccountStore } from '../store/crm-store';
import type { EnrolmentDoc, StepDoc, WorkflowDoc } from './campaign.model';
import { WORKFLOWS_PER_ACCOUNT_MAX, type StepInput, type WorkflowInput, type WorkflowUpdate } from './campaign.schemas';

export type ShownWorkflow = Shown<WorkflowDoc, DomainUserDoc[]>;
export type WorkflowPage = ShownPage<WorkflowDoc, DomainUserDoc[]>;

export const workflowNotFound = (id: number) => new HttpError(404, 'workflow_not_found', `No workflow with id ${id}`);
const contactNotFound = (id: number) => new HttpError(404, 'contact_not_found', `No contact with id ${id}`);
const noContactWithEmail = (email: string) => badRequest(`No contact has the email ${email}`, [{ field: 'email', message: 'matches no contact' }]);
const noWorkflow = (id: number) => badRequest(`No workflow with id ${id}`, [{ field: 'workflow-id', message: 'names no workflow of this account' }]);
const tooMany = () =>
  badRequest(`An account holds at most ${WORKFLOWS_PER_ACCOUNT_MAX} workflows`, [{ field: 'name', message: `the account holds ${WORKFLOWS_PER_ACCOUNT_MAX} workflows already` }]);

/** A step as stored: the fields of its type. */
const storedStep = (step: StepInput): StepDoc => ({ ...step });

export interface CampaignServiceDeps {
  /** Told when an enrolment is due now (the worker of this process looks at once). */
  nudge?: () => void;
}

/** Use cases on the campaigns (workflows) of one account and their subscribers. */
export function campaignService({ nudge }: CampaignServiceDeps = {}) {
  const shown = async (store: AccountStore, doc: WorkflowDoc): Promise<ShownWorkflow> => ({ item: doc, related: await store.users.byIds([doc.creator]) });

  /** Every WEBHOOK step names a webhook of the account (400 otherwise). */
  async function assertSteps(store: AccountStore, steps: StepInput[]): Promise<void> {
    const issues: Array<{ field: string; message: string }> = [];
    for (const [index, step] of steps.entries()) {
      if (step.type === 'WEBHOOK' && !(await store.webhooks.get(step.webhook_id))) issues.push({ field: `steps[${index}].webhook_id`, message: `names no webhook of this account (${step.webhook_id})` });
    }
    if (issues.length) throw validationFailed(issues);
  }

  async function requireWorkflow(store: AccountStore, id: number, missing: (id: number) => HttpError): Promise<WorkflowDoc> {
    const doc = await store.workflows.get(id);
    if (!doc) throw missing(id);
    return doc;
  }

  async function personByEmail(store: AccountStore, email: string): Promise<ContactDoc> {
    const contact = await store.contacts.byEmailFast(email);
    if (!contact) throw noContactWithEmail(email);
    if (contact.type === 'COMPANY') throw badRequest('Only persons enrol in campaigns', [{ field: 'email', message: 'is the email of a company' }]);
    return contact;
  }

  return {
    list: async (store: AccountStore, params: PageParams): Promise<WorkflowPage> => ({
      page: await store.workflows.list(params),
      related: async (docs) => store.users.byIds([...new Set(docs.map((doc) => doc.creator))]),
    }),

    async get(store: AccountStore, id: number): Promise<ShownWorkflow> {
      return shown(store, await requireWorkflow(store, id, workflowNotFound));
    },

    /** A new workflow made by `user`; 400 past WORKFLOWS_PER_ACCOUNT_MAX (concurrent creates past it undo themselves). */
    async create(store: AccountStore, user: DomainUserDoc, input: Omit<WorkflowInput, 'id'>): Promise<ShownWorkflow> {
      await assertSteps(store, input.steps);
      if ((await store.workflows.count()) >= WORKFLOWS_PER_ACCOUNT_MAX) throw tooMany();
      const now = nowSeconds();
      const doc = await store.workflows.insert({ name: input.name.trim(), steps: input.steps.map(storedStep), creator: user._id, created_time: now, updated_time: now });
      if ((await store.workflows.count()) > WORKFLOWS_PER_ACCOUNT_MAX) {
        await store.workflows.remove(doc._id);
        throw tooMany();
      }
      return shown(store, doc);
    },

    /**
     * Renames and replaces the steps. Active enrolments keep their place (the index of their next
     * step): they go on with the new steps from there, and end when there are no more.
     */
    async update(store: AccountStore, input: WorkflowUpdate): Promise<ShownWorkflow> {
      await assertSteps(store, input.steps);
      const doc = await store.workflows.update(input.id, { name: input.name.trim(), steps: input.steps.map(storedStep), updated_time: nowSeconds() });
      if (!doc) throw workflowNotFound(input.id);
      return shown(store, doc);
    },

    /** The workflow goes with its enrolments: none of its steps runs after this. 404 for an id the account has not. */
    async remove(store: AccountStore, id: number): Promise<void> {
      if (!(await store.workflows.remove(id))) throw workflowNotFound(id);
      await store.enrolments.removeOfWorkflow(id);
    },

    /**
     * Enrols the person with this email: its first step is due at once. An active enrolment is
     * answered as it is (enrolling twice runs the steps once); a finished or removed one starts
     * again from the first step; a contact unsubscribed from the workflow is refused (400).
     */
    async enroll(store: AccountStore, email: string, workflowId: number): Promise<EnrolmentDoc> {
      const contact = await personByEmail(store, email);
      await requireWorkflow(store, workflowId, noWorkflow);
      const now = new Date();
      for (;;) {
        const existing = await store.enrolments.of(workflowId, contact._id);
        if (existing?.status === 'UNSUBSCRIBED') throw badRequest(`${email} unsubscribed from this campaign`, [{ field: 'email', message: 'unsubscribed from this workflow' }]);
        if (existing?.status === 'ACTIVE') return existing;
        const started = existing
          ? await store.enrolments.restart(existing._id, now, nowSeconds())
          : await store.enrolments
              .insert({ workflow: workflowId, contact: contact._id, status: 'ACTIVE', step: 0, next_run_at: now, lock_until: null, lock_token: null, log: [], created_time: nowSeconds(), updated_time: nowSeconds() })
              .catch((err: unknown) => {
                if (isDuplicateKey(err)) return null; // enrolled by another request meanwhile: read it again
                throw err;
              });
        if (!started) continue;
        // a workflow deleted meanwhile takes its enrolments: this one goes too
        if (!(await store.workflows.get(workflowId))) {
          await store.enrolments.removeOfWorkflow(workflowId);
          throw noWorkflow(workflowId);
        }
        nudge?.();
        return started;
      }
    },

    /** remove-active-subscriber: the contact's active enrolment in the workflow stops at once (204 also when it was not active). */
    async removeSubscriber(store: AccountStore, workflowId: number, contactId: number): Promise<void> {
      await requireWorkflow(store, workflowId, workflowNotFound);
      if (!(await store.contacts.get(contactId))) throw contactNotFound(contactId);
      await store.enrolments.stop({ workflow: workflowId, contact: contactId }, 'REMOVED', nowSeconds());
    },

    /**
     * The person with this email unsubscribes from the workflow (from every workflow it is in when
     * none is named): its enrolments stop at once and a later enrolment in them is refused.
     */
    async unsubscribe(store: AccountStore, email: string, workflowId: number | undefined): Promise<void> {
      const contact = await personByEmail(store, email);
      const now = nowSeconds();
      if (workflowId === undefined) {
        await store.enrolments.stop({ contact: contact._id }, 'UNSUBSCRIBED', now);
        return;
      }
      await requireWorkflow(store, workflowId, noWorkflow);
      const result = await store.enrolments.stop({ workflow: workflowId, contact: contact._id }, 'UNSUBSCRIBED', now);
      if (result.matchedCount) return;
      // never enrolled: the refusal of a later enrolment is recorded all the same
      await store.enrolments
        .insert({ workflow: workflowId, contact: contact._id, status: 'UNSUBSCRIBED', step: 0, next_run_at: null, lock_until: null, lock_token: null, log: [], created_time: now, updated_time: now })
        .catch(async (err: unknown) => {
          if (!isDuplicateKey(err)) throw err;
          await store.enrolments.stop({ workflow: workflowId, contact: contact._id }, 'UNSUBSCRIBED', now);
        });
    },

    /** The workflow's enrolments (active, done, removed, unsubscribed) in creation order. */
    async subscribers(store: AccountStore, workflowId: number, params: PageParams) {
      await requireWorkflow(store, workflowId, workflowNotFound);
      return shownAsIs(await store.enrolments.list(workflowId, params));
    },
  };
}

export type CampaignService = ReturnType<typeof campaignService>;
