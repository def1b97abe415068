import { PAGE_BUDGET_BYTES, PAGE_MAX } from '../http/page-budget';
import type { DealDoc } from './deal.model';
import type { DealView } from './deal.view';

/**
 * D8/D9 are unpaged by the spec's shape (an object keyed by milestone), so they are bounded here:
 * they show a track's deals oldest first until either bound is reached, and say so in
 * TRUNCATED_HEADER; D10 (paged) reads every deal of a track.
 */
export const MILESTONE_VIEW_MAX_DEALS = 1000;
export const TRUNCATED_HEADER = 'X-Truncated';
/** An XML answer is at most this many times the JSON's bytes (`&` is 1 byte in JSON, `&amp;` 5 in XML). */
const XML_EXPANSION = 5;

export interface MilestoneViewDeals {
  views: DealView[];
  /** More deals are in the track than the view shows. */
  truncated: boolean;
}

/**
 * The deals a milestone view shows, read and presented PAGE_MAX.deals at a time (so no more than
 * one batch beyond the answer is ever held), until the track ends, MILESTONE_VIEW_MAX_DEALS are
 * taken, or the next would take the answer over PAGE_BUDGET_BYTES.
 */
export async function milestoneViewDeals(
  docs: (batchSize: number) => AsyncIterable<DealDoc[]>,
  present: (docs: DealDoc[]) => Promise<DealView[]>,
  format: 'json' | 'xml',
): Promise<MilestoneViewDeals> {
  const views: DealView[] = [];
  const expansion = format === 'xml' ? XML_EXPANSION : 1;
  let bytes = 0;
  for await (const batch of docs(PAGE_MAX.deals)) {
    for (const view of await present(batch)) {
      const size = Buffer.byteLength(JSON.stringify(view)) * expansion;
      if (views.length === MILESTONE_VIEW_MAX_DEALS || bytes + size > PAGE_BUDGET_BYTES) return { views, truncated: true };
      views.push(view);
      bytes += size;
    }
  }
  return { views, truncated: false };
}
