import { counter, gauge } from '@lib/http';

/** Steps run (committed), by type and outcome: done, skipped (the contact could not take it). */
export const stepsRun = counter('campaign_steps_total', 'Campaign steps run, by step type and outcome (done, skipped)', ['type', 'outcome']);

/** Steps that failed (the database, a bug): tried again when their claim expires. */
export const stepsFailed = counter('campaign_step_failures_total', 'Campaign steps that failed and wait for their claim to expire', []);

/** Active enrolments due now across accounts (read from the database when scraped), counted up to `upTo`. */
export function campaignBacklogGauge(read: () => Promise<number>): void {
  gauge('campaign_backlog', 'Active campaign enrolments whose next step is due (read from the database when scraped)', async (set) => set(await read()));
}
