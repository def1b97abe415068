import { toXml } from '@lib/http';
import type { PageReader } from '@lib/paging';
import { MAX_RELATED_CONTACTS } from '../contacts/contact-links';
import { relatedContactsBytes } from '../contacts/contact.paging';
import { PAGE_BUDGET_BYTES, PRESENTED_AT_ONCE_BYTES } from '../http/page-budget';
import type { DealDoc } from './deal.model';
import { DEAL_READING } from './deal.paging';
import type { DealView } from './deal.view';
import { MILESTONE_VIEW_MAX_DEALS, milestoneView } from './milestone-view';

const MILESTONES = ['Open', 'Won "big"', 'Lost\u2028', 'Empty'];

/** A track of `count` deals (ids from 1) with `related(id)` contacts each, read as the pager reads it; records each read's size. */
function track(count: number, related: (id: number) => number = () => 0, size = MILESTONE_VIEW_MAX_DEALS) {
  const deals = Array.from({ length: count }, (_, i) => ({ _id: i + 1, contact_ids: Array.from({ length: related(i + 1) }, (_, c) => 100 + c) }) as unknown as DealDoc);
  const reads: number[] = [];
  let at = 0;
  const reader: PageReader<DealDoc> = {
    size,
    read: async (n) => {
      reads.push(n);
      const batch = deals.slice(at, at + n);
      at += batch.length;
      return batch;
    },
    cursorAfter: () => 'unused',
  };
  return { reader, reads };
}

/** A presenter recording the chunks it is given; each view `{id, milestone, name}` with `text` in its name. */
function presenter(text: (id: number) => string = (id) => `Deal ${id} & <co>`) {
  const chunks: number[][] = [];
  const present = async (docs: DealDoc[]) => {
    chunks.push(docs.map((d) => d._id));
    return docs.map((d) => ({ id: d._id, milestone: MILESTONES[d._id % 3], name: text(d._id) }) as unknown as DealView);
  };
  return { chunks, present };
}

const byMilestone = (views: Array<{ milestone: string }>) => Object.fromEntries(MILESTONES.map((name) => [name, views.filter((v) => v.milestone === name)]));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

it('shows every deal of a short track, read in batches, in the answer send would write for the object keyed by milestone (JSON and XML)', async () => {
  const { reader, reads } = track(100);
  const { present, chunks } = presenter();
  const json = await milestoneView(reader, present, 'json', MILESTONES);
  expect(json.truncated).toBe(false);
  const views = range(1, 100).map((id) => ({ id, milestone: MILESTONES[id % 3], name: `Deal ${id} & <co>` }));
  expect(json.text).toBe(JSON.stringify(byMilestone(views)));
  expect(Object.keys(JSON.parse(json.text))).toEqual(MILESTONES);
  expect(JSON.parse(json.text).Empty).toEqual([]);
  expect(chunks.flat()).toEqual(range(1, 100));
  expect(Math.max(...reads)).toBeLessThanOrEqual(DEAL_READING.readBatch + 1);
  const xml = await milestoneView(track(100).reader, presenter().present, 'xml', MILESTONES);
  const milestone = MILESTONES.map((name) => ({ name, opportunity: byMilestone(views)[name] }));
  expect(xml.text).toBe(toXml({ milestone }, 'milestones'));
});

it(`presents deals with ${MAX_RELATED_CONTACTS} related contacts a few at a time: their contacts in full stay within PRESENTED_AT_ONCE_BYTES`, async () => {
  const { reader } = track(9, () => MAX_RELATED_CONTACTS);
  const { present, chunks } = presenter();
  await milestoneView(reader, present, 'xml', MILESTONES);
  const perChunk = Math.floor(PRESENTED_AT_ONCE_BYTES / relatedContactsBytes(MAX_RELATED_CONTACTS));
  expect(perChunk).toBeGreaterThanOrEqual(1);
  expect(chunks.map((c) => c.length)).toEqual([...Array(Math.floor(9 / perChunk)).fill(perChunk), ...(9 % perChunk ? [9 % perChunk] : [])]);
  expect(chunks.flat()).toEqual(range(1, 9));
});

it(`stops at ${MILESTONE_VIEW_MAX_DEALS} deals and says more exist, reading one beyond them at most`, async () => {
  const { reader, reads } = track(MILESTONE_VIEW_MAX_DEALS + 100);
  const { present, chunks } = presenter();
  const view = await milestoneView(reader, present, 'json', MILESTONES);
  expect(view.truncated).toBe(true);
  const shown = Object.values(JSON.parse(view.text) as Record<string, Array<{ id: number }>>)
    .flat()
    .map((d) => d.id)
    .sort((a, b) => a - b);
  expect(shown).toEqual(range(1, MILESTONE_VIEW_MAX_DEALS));
  expect(reads.reduce((a, b) => a + b, 0)).toBe(MILESTONE_VIEW_MAX_DEALS + 1);
  expect(chunks.flat()).not.toContain(MILESTONE_VIEW_MAX_DEALS + 1);
});

it.each(['json', 'xml'] as const)('stops before the deal that would take the %s answer over the page budget, reading no further', async (kind) => {
  const { reader, reads } = track(MILESTONE_VIEW_MAX_DEALS);
  const { present, chunks } = presenter(() => '&'.repeat(20_000)); // 20 kB of JSON, 100 kB of XML a deal
  const view = await milestoneView(reader, present, kind, MILESTONES);
  expect(view.truncated).toBe(true);
  expect(Buffer.byteLength(view.text)).toBeLessThanOrEqual(PAGE_BUDGET_BYTES);
  const shown = kind === 'json' ? Object.values(JSON.parse(view.text) as Record<string, unknown[]>).flat().length : (view.text.match(/<opportunity>/g) ?? []).length;
  const each = kind === 'json' ? 20_000 : 100_000;
  expect(shown).toBeGreaterThan(PAGE_BUDGET_BYTES / each - 3);
  expect(shown).toBeLessThanOrEqual(PAGE_BUDGET_BYTES / each);
  // the reads stop with the batch that filled the view
  expect(chunks.flat().length).toBeLessThan(shown + DEAL_READING.readBatch + 2);
  expect(reads.length).toBeLessThanOrEqual(Math.ceil((shown + 1) / DEAL_READING.readBatch) + 1);
});
