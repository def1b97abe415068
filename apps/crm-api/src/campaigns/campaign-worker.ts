import { randomUUID } from 'node:crypto';
import type { Logger } from '@lib/http';
import type { CrossTenantCampaigns, DueEnrolment } from '../store/cross-tenant-campaigns';
import { stepsFailed } from './campaign-metrics';
import type { CampaignSteps } from './campaign-steps';
import type { CampaignSettings } from './campaign-settings';
import { pollingWorker, type Job } from '../workers/polling-worker';

export interface CampaignWorker {
  /** Starts looking for due enrolments (every `pollMs`, and at once after each `nudge`). */
  start(): void;
  /** An enrolment is due now: look at once instead of at the next poll. */
  nudge(): void;
  /** Stops looking and waits for the steps in flight (a step's transaction commits or stores nothing). */
  stop(): Promise<void>;
}

export interface CampaignWorkerDeps {
  tenants: CrossTenantCampaigns;
  steps: CampaignSteps;
  settings: CampaignSettings;
  logger: Logger;
}

/**
 * Runs the due steps of every account's enrolments, on every replica. A replica claims a due
 * enrolment (an atomic compare-and-set: active, due, unclaimed or its claim expired, at the step it
 * read) for `leaseMs`, runs its steps while they are due (each step one transaction that checks the
 * claim again, campaign-steps.ts), and frees it. N replicas share the work; a step runs once. A
 * replica killed mid-step stores nothing of that step; its claim expires and another replica runs it.
 */
export function campaignWorker({ tenants, steps, settings, logger }: CampaignWorkerDeps): CampaignWorker {
  const { pollMs, leaseMs, concurrency, stepsPerClaim } = settings;
  const serving = new Set<number>();

  /** Runs the enrolment's due steps under one claim (at most `stepsPerClaim`, then it waits for the next pass). */
  async function serve(due: DueEnrolment): Promise<void> {
    const token = randomUUID();
    if (!(await tenants.claim(due, token, new Date(), new Date(Date.now() + leaseMs)))) return;
    const store = tenants.storeOf(due);
    let step = due.step;
    // a step that failed (the database, a bug) keeps the claim: the enrolment is tried again when it expires, not at once
    for (let n = 0; n < stepsPerClaim && !worker.stopping.aborted; n++) {
      const result = await steps.run(store, due._id, step, token);
      if (!result || result.status !== 'ACTIVE' || !result.next_run_at || result.next_run_at.getTime() > Date.now()) break;
      step = result.step;
      if (!(await tenants.renew(due, token, new Date(Date.now() + leaseMs)))) return;
    }
    await tenants.release(due, token).catch((err: unknown) => logger.warn({ err, enrolment: due._id }, 'campaigns: cannot free an enrolment claim; it expires by itself'));
  }

  async function next(free: number): Promise<Job[]> {
    let due: DueEnrolment[] = [];
    try {
      due = await tenants.due(new Date(), concurrency * 4);
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'campaigns: cannot read the due enrolments; trying again');
    }
    // in random order: replicas reading the same due list try different enrolments first
    const picked = due.filter((d) => !serving.has(d._id)).sort(() => Math.random() - 0.5).slice(0, free);
    return picked.map((enrolment) => {
      serving.add(enrolment._id);
      return () =>
        serve(enrolment)
          .catch((err: unknown) => {
            stepsFailed.inc();
            logger.error({ err, enrolment: enrolment._id, account: enrolment.account }, 'campaigns: a step failed; its enrolment is tried again when its claim expires');
          })
          .finally(() => {
            serving.delete(enrolment._id);
            worker.nudge();
          });
    });
  }

  const worker = pollingWorker({ pollMs, concurrency, next });
  return worker;
}
