/**
 * REVIEW NOTE — the campaign worker's cross-tenant door (beside cross-tenant.ts, under the same
 * rule). The campaign worker serves every account from one queue: it reads the active enrolments
 * due across accounts, claims one (an atomic compare-and-set on its step and claim), and opens the
 * store of the enrolment's own account to run the step there (campaigns/campaign-steps.ts), where
 * every read and write is scoped to that account as any request's.
 *
 * What it may do: only these calls, keyed by time (what is due) or by an enrolment it read (its id,
 * account and step). What it must not do: take an account or an enrolment id from a caller's input,
 * answer a request with what it reads, or hand out a model, a collection or the connection. Its
 * caller is the worker (campaigns/campaign-worker.ts), wired in wiring.ts.
 *
 * Rule: every function here is reviewed for tenant isolation when it is added or changed, and a
 * change to this file names that review in its commit.
 */
import { driverCollection } from '@lib/mongo';
import type { Connection } from 'mongoose';
import { enrolmentModel, type EnrolmentDoc } from '../campaigns/campaign.model';
import type { AccountId } from './account-id';
import type { AccountStore, CrmStore } from './crm-store';

/** What the worker reads of a due enrolment. */
export type DueEnrolment = Pick<EnrolmentDoc, '_id' | 'account' | 'step'>;

export function crossTenantCampaigns(connection: Connection, store: CrmStore) {
  const enrolments = driverCollection(enrolmentModel(connection));
  const unclaimed = (now: Date) => ({ $or: [{ lock_until: null }, { lock_until: { $lte: now } }] });
  return {
    /** Active enrolments due at `now` and not claimed, soonest first (the partial index on `next_run_at`). */
    due: (now: Date, limit: number): Promise<DueEnrolment[]> =>
      enrolments
        .find({ status: 'ACTIVE', next_run_at: { $lte: now }, ...unclaimed(now) }, { projection: { _id: 1, account: 1, step: 1 } })
        .sort({ next_run_at: 1 })
        .limit(limit)
        .toArray() as Promise<DueEnrolment[]>,

    /** Claims the enrolment for `token` until `until` if it is still active, due, unclaimed and at the step read; true when claimed. */
    async claim(enrolment: DueEnrolment, token: string, now: Date, until: Date): Promise<boolean> {
      const result = await enrolments.updateOne(
        { _id: enrolment._id, account: enrolment.account, status: 'ACTIVE', step: enrolment.step, next_run_at: { $lte: now }, ...unclaimed(now) },
        { $set: { lock_until: until, lock_token: token } },
      );
      return result.modifiedCount === 1;
    },

    /** Extends this worker's claim (between steps of one enrolment); false when it is no longer this worker's. */
    async renew(enrolment: DueEnrolment, token: string, until: Date): Promise<boolean> {
      const result = await enrolments.updateOne({ _id: enrolment._id, account: enrolment.account, status: 'ACTIVE', lock_token: token }, { $set: { lock_until: until } });
      return result.modifiedCount === 1;
    },

    /** Frees this worker's claim. */
    release: (enrolment: DueEnrolment, token: string) => enrolments.updateOne({ _id: enrolment._id, account: enrolment.account, lock_token: token }, { $set: { lock_until: null, lock_token: null } }),

    /** The store of the enrolment's account: the step runs there, as a request of that account would. */
    storeOf: (enrolment: DueEnrolment): AccountStore => store.of(enrolment.account as AccountId),

    /** Active enrolments due now (the backlog metric), counted up to `upTo`. */
    backlog: (upTo: number) => enrolments.countDocuments({ status: 'ACTIVE', next_run_at: { $lte: new Date() } }, { limit: upTo }),
  };
}

export type CrossTenantCampaigns = ReturnType<typeof crossTenantCampaigns>;
