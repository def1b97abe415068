import { listText, XML_DECLARATION, xmlElementText, type MediaKind } from '@lib/http';
import { fillPage, type PageReader } from '@lib/paging';
import { PAGE_BUDGET_BYTES, PRESENTED_AT_ONCE_BYTES } from '../http/page-budget';
import type { DealDoc } from './deal.model';
import { DEAL_PAGE, DEAL_READING } from './deal.paging';
import { dealViews, type DealRelated } from './deal.presenter';
import type { DealView } from './deal.view';

/**
 * D8/D9 are unpaged by the spec's shape (an object keyed by milestone), so they are bounded here:
 * they show a track's deals oldest first until either bound is reached, and say so in
 * TRUNCATED_HEADER; D10 (paged) reads every deal of a track.
 */
export const MILESTONE_VIEW_MAX_DEALS = 1000;
export const TRUNCATED_HEADER = 'X-Truncated';

/**
 * The body of the answer: JSON keyed by milestone, in track order; XML as a list of milestones
 * each with its name and deals (XML element names cannot hold every milestone name).
 */
export type MilestonesBody = Record<string, DealView[]> | { milestone: Array<{ name: string; opportunity: DealView[] }> };

export interface MilestoneView {
  /** The whole answer, JSON or XML. */
  text: string;
  /** The answer as an object: what `text` is written from (the response check compares them). */
  body: MilestonesBody;
  /** More deals are in the track than the view shows. */
  truncated: boolean;
}

/**
 * The answer around the deals' texts, milestones in track order: JSON `{"Open":[…],"Won":[…]}`;
 * XML `<milestones><milestone><name>Open</name><opportunity>…</opportunity>…</milestone>…</milestones>`
 * (what `send` writes for `{milestone: [{name, opportunity: [...]}, …]}`).
 */
function milestonesText(kind: MediaKind, milestones: readonly string[], dealsIn: (milestone: string) => string[]): string {
  if (kind === 'json') return `{${milestones.map((name) => `${JSON.stringify(name)}:[${dealsIn(name).join(',')}]`).join(',')}}`;
  if (milestones.length === 0) return `${XML_DECLARATION}<milestones/>`;
  const groups = milestones.map((name) => `<milestone>${xmlElementText('name', name)}${dealsIn(name).join('')}</milestone>`);
  return `${XML_DECLARATION}<milestones>${groups.join('')}</milestones>`;
}

/**
 * The view of a track's deals by milestone, filled like a page (`fillPage`, the lists' one
 * mechanism): deals read and presented in bounded batches, each written as it is sent and
 * measured, until the track ends, `deals.size` (MILESTONE_VIEW_MAX_DEALS) are shown, or the next
 * would take the answer over PAGE_BUDGET_BYTES. A deal whose milestone the track no longer lists
 * counts against the budget but is not shown (as before).
 */
export async function milestoneView(
  deals: PageReader<DealDoc>,
  present: (docs: DealDoc[]) => Promise<DealView[]>,
  kind: MediaKind,
  milestones: readonly string[],
): Promise<MilestoneView> {
  const list = listText(kind, DEAL_PAGE.xml);
  const views: DealView[] = [];
  const filled = await fillPage(deals, {
    size: deals.size,
    bytes: PAGE_BUDGET_BYTES - Buffer.byteLength(milestonesText(kind, milestones, () => [])),
    // JSON: a comma before every deal but the first of its milestone (one per deal bounds it)
    separatorBytes: list.separatorBytes,
    readBatch: DEAL_READING.readBatch,
    loads: DEAL_READING.loads,
    loadsAtOnce: PRESENTED_AT_ONCE_BYTES,
    present,
    write: (view, index) => list.item((views[index] = view)),
  });
  views.length = filled.texts.length; // the deal written past the budget is not shown
  const shownIn = (name: string) => views.filter((view) => view.milestone === name);
  const text = milestonesText(kind, milestones, (name) => filled.texts.filter((_, i) => views[i].milestone === name));
  const body: MilestonesBody =
    kind === 'json' ? Object.fromEntries(milestones.map((name) => [name, shownIn(name)])) : { milestone: milestones.map((name) => ({ name, opportunity: shownIn(name) })) };
  return { text, body, truncated: filled.more };
}

/** D8/D9's answer: the view of a track's deals by milestone, and `X-Truncated: true` when the track holds more. */
export async function milestoneReply(media: MediaKind, track: { milestones: string[]; deals: { page: PageReader<DealDoc>; related(records: DealDoc[]): Promise<DealRelated> } }) {
  const present = async (records: DealDoc[]) => dealViews(records, await track.deals.related(records));
  const view = await milestoneView(track.deals.page, present, media, track.milestones);
  return { status: 200 as const, body: view.body, text: view.text, ...(view.truncated && { headers: { [TRUNCATED_HEADER]: 'true' } }) };
}
