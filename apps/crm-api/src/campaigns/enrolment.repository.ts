import type { Page, PageParams } from '../paging';
import type { AccountScope } from '../store/account-scope';
import type { EnrolmentDoc, EnrolmentStatus, StepRun } from './campaign.model';

/** Steps an enrolment's log keeps (the last ones). */
export const ENROLMENT_LOG_MAX = 20;

/** The campaign enrolments (subscribers) of one account. */
export function enrolmentRepository(scope: AccountScope<EnrolmentDoc>) {
  return {
    get: (id: number) => scope.get(id),
    of: (workflow: number, contact: number) => scope.findOne({ workflow, contact }),
    insert: (fields: Omit<EnrolmentDoc, '_id' | 'account'>) => scope.insert((id) => ({ _id: id, ...fields })),
    /** Starts a finished or removed enrolment again from the first step; null when it is active or unsubscribed (or gone). */
    restart: (id: number, at: Date, now: number) =>
      scope.findOneAndUpdate(
        { _id: id, status: { $in: ['DONE', 'REMOVED'] } },
        { $set: { status: 'ACTIVE', step: 0, next_run_at: at, lock_until: null, lock_token: null, log: [], updated_time: now } },
        'after',
      ),
    /** Ends the active enrolments matching `filter` with `status`, at once: the worker's claim and its step's transaction both read the status. */
    stop: (filter: { workflow?: number; contact: number }, status: Extract<EnrolmentStatus, 'REMOVED' | 'UNSUBSCRIBED'>, now: number) =>
      scope.updateMany(
        { ...filter, status: status === 'REMOVED' ? 'ACTIVE' : { $ne: 'UNSUBSCRIBED' } },
        { $set: { status, next_run_at: null, lock_until: null, lock_token: null, updated_time: now } },
      ),
    /** A page of the workflow's enrolments in creation order. */
    list: (workflow: number, params: PageParams): Promise<Page<EnrolmentDoc>> => scope.page(`workflow:${workflow}`, { workflow }, params),
    countActiveOf: (contact: number) => scope.count({ contact, status: 'ACTIVE' }),
    /**
     * The worker's step: moves the enrolment claimed with `token` at step `step` on, if it still is
     * (active, at that step, claimed by this token). In the step's transaction: a removal meanwhile
     * makes it match nothing, and the step's writes are undone with it.
     */
    advance: (current: Pick<EnrolmentDoc, '_id' | 'step' | 'log'>, token: string, next: { step: number; status: EnrolmentStatus; next_run_at: Date | null }, run: StepRun, now: number) =>
      scope.updateOne(
        { _id: current._id, step: current.step, status: 'ACTIVE', lock_token: token },
        // the log as read in the step's transaction, plus this run: the compare-and-set on `step` makes it the stored one
        { $set: { ...next, log: [...current.log, run].slice(-ENROLMENT_LOG_MAX), updated_time: now, ...(next.status !== 'ACTIVE' && { lock_until: null, lock_token: null }) } },
      ),
    /** Frees a claim (the worker stops before the enrolment's next step is due). */
    release: (id: number, token: string) => scope.updateOne({ _id: id, lock_token: token }, { $set: { lock_until: null, lock_token: null } }),
    /** A deleted workflow's or contact's enrolments go. */
    removeOfWorkflow: (workflow: number) => scope.deleteMany({ workflow }),
    removeOfContact: (contact: number) => scope.deleteMany({ contact }),
  };
}

export type EnrolmentRepository = ReturnType<typeof enrolmentRepository>;
