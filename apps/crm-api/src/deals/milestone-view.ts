import { MAX_RELATED_CONTACTS } from '../contacts/contact-links';
import { PAGE_BUDGET_BYTES, PAGE_MAX, WORST_ITEM_BYTES } from '../http/page-budget';
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
  /** Each view as JSON, as measured (same order as `views`): a JSON answer is built from these, not serialized again. */
  json: string[];
  /** More deals are in the track than the view shows. */
  truncated: boolean;
}

/** The most a deal can weigh as sent without its related contacts (name, description, custom data, owner, note ids). */
const DEAL_OWN_WORST_BYTES = WORST_ITEM_BYTES.deal - MAX_RELATED_CONTACTS * WORST_ITEM_BYTES.contact;
/**
 * The worst-case bytes of the deals presented at once: what PAGE_MAX.deals deals at their bounds
 * weigh (7.5 MiB). Deals with few related contacts weigh far less at worst, so a track's deals are
 * presented in as few chunks as that bound allows (the relations of a chunk cost four reads).
 */
const CHUNK_WORST_BYTES = PAGE_MAX.deals * WORST_ITEM_BYTES.deal;
/** Deals read from the database at a time (their own worst case: 40 × 128 KiB = 5 MiB). */
export const MILESTONE_VIEW_READ_BATCH = 40;

const worstBytesOf = (doc: DealDoc) => DEAL_OWN_WORST_BYTES + doc.contact_ids.length * WORST_ITEM_BYTES.contact;

/**
 * The deals a milestone view shows, read MILESTONE_VIEW_READ_BATCH at a time and presented in
 * chunks of at most CHUNK_WORST_BYTES at their bounds (so no more than one chunk and the rest of
 * one read batch beyond the answer is ever held), until the track ends, MILESTONE_VIEW_MAX_DEALS
 * are taken, or the next would take the answer over PAGE_BUDGET_BYTES.
 */
export async function milestoneViewDeals(
  docs: (batchSize: number) => AsyncIterable<DealDoc[]>,
  present: (docs: DealDoc[]) => Promise<DealView[]>,
  format: 'json' | 'xml',
): Promise<MilestoneViewDeals> {
  const views: DealView[] = [];
  const json: string[] = [];
  const expansion = format === 'xml' ? XML_EXPANSION : 1;
  let bytes = 0;
  /** Presents `chunk` and takes its views while they fit; false once the view is full. */
  async function take(chunk: DealDoc[]): Promise<boolean> {
    for (const view of await present(chunk)) {
      const text = JSON.stringify(view);
      const size = Buffer.byteLength(text) * expansion;
      if (views.length === MILESTONE_VIEW_MAX_DEALS || bytes + size > PAGE_BUDGET_BYTES) return false;
      views.push(view);
      json.push(text);
      bytes += size;
    }
    return true;
  }
  let chunk: DealDoc[] = [];
  let chunkWorst = 0;
  for await (const batch of docs(MILESTONE_VIEW_READ_BATCH)) {
    for (const doc of batch) {
      const worst = worstBytesOf(doc);
      if (chunk.length > 0 && chunkWorst + worst > CHUNK_WORST_BYTES) {
        if (!(await take(chunk))) return { views, json, truncated: true };
        chunk = [];
        chunkWorst = 0;
      }
      chunk.push(doc);
      chunkWorst += worst;
    }
  }
  if (chunk.length > 0 && !(await take(chunk))) return { views, json, truncated: true };
  return { views, json, truncated: false };
}

/**
 * The JSON answer of D8/D9, `{"<milestone>": [deal, …], …}` in track order, assembled from the
 * views' measured JSON (what `res.json` of the same object would send, without serializing every
 * deal a second time).
 */
export function milestoneViewJson(milestones: readonly string[], { views, json }: MilestoneViewDeals): string {
  const groups = milestones.map((name) => {
    const deals = json.filter((_, i) => views[i].milestone === name);
    return `${JSON.stringify(name)}:[${deals.join(',')}]`;
  });
  return `{${groups.join(',')}}`;
}
