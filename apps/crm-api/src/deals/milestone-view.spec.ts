import { MAX_RELATED_CONTACTS } from '../contacts/contact-links';
import { PAGE_MAX } from '../http/page-budget';
import type { DealDoc } from './deal.model';
import type { DealView } from './deal.view';
import { MILESTONE_VIEW_MAX_DEALS, MILESTONE_VIEW_READ_BATCH, milestoneViewDeals, milestoneViewJson } from './milestone-view';

/** Deals with `related` contacts each, ids from 1, in batches of the size the view asks for. */
function track(count: number, related: (id: number) => number) {
  const deals = Array.from({ length: count }, (_, i) => ({ _id: i + 1, contact_ids: Array.from({ length: related(i + 1) }, (_, c) => 100 + c) }) as unknown as DealDoc);
  const asked: number[] = [];
  async function* docs(size: number) {
    asked.push(size);
    for (let i = 0; i < deals.length; i += size) yield deals.slice(i, i + size);
  }
  return { docs, asked };
}

/** A presenter that records the chunks it is given and answers a small view per deal. */
function recorder() {
  const chunks: number[][] = [];
  const present = async (docs: DealDoc[]) => {
    chunks.push(docs.map((d) => d._id));
    return docs.map((d) => ({ id: d._id }) as unknown as DealView);
  };
  return { chunks, present };
}

const ids = (views: DealView[]) => views.map((v) => (v as unknown as { id: number }).id);

it('presents deals with one related contact 40 to a chunk, read 40 at a time, every deal in order', async () => {
  const { docs, asked } = track(100, () => 1);
  const { chunks, present } = recorder();
  const { views, truncated } = await milestoneViewDeals(docs, present, 'json');
  expect(asked).toEqual([MILESTONE_VIEW_READ_BATCH]);
  expect(chunks.map((c) => c.length)).toEqual([40, 40, 20]);
  expect(chunks.flat()).toEqual(ids(views));
  expect(ids(views)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  expect(truncated).toBe(false);
});

it(`deals at their bounds (${MAX_RELATED_CONTACTS} related contacts) go ${PAGE_MAX.deals} to a chunk, as many as a page of them`, async () => {
  const { docs } = track(25, () => MAX_RELATED_CONTACTS);
  const { chunks, present } = recorder();
  const { views } = await milestoneViewDeals(docs, present, 'xml');
  expect(chunks.map((c) => c.length)).toEqual([PAGE_MAX.deals, PAGE_MAX.deals, 5]);
  expect(ids(views)).toHaveLength(25);
});

it('a chunk closes before the deal that would take it over the bound, across read batches', async () => {
  // 9 deals at their bounds, then light ones: the 10th heavy deal would not fit beside 9 + light ones
  const { docs } = track(60, (id) => (id <= 9 || id === 12 ? MAX_RELATED_CONTACTS : 0));
  const { chunks, present } = recorder();
  const { views } = await milestoneViewDeals(docs, present, 'json');
  expect(chunks[0]).toEqual(Array.from({ length: 11 }, (_, i) => i + 1)); // 9 heavy + 2 light fit; the 12th (heavy) does not
  expect(chunks[1][0]).toBe(12);
  expect(ids(views)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
});

it(`stops at ${MILESTONE_VIEW_MAX_DEALS} deals and says more exist, presenting no chunk beyond the one that filled it`, async () => {
  const { docs } = track(MILESTONE_VIEW_MAX_DEALS + 100, () => 0);
  const { chunks, present } = recorder();
  const { views, truncated } = await milestoneViewDeals(docs, present, 'json');
  expect(truncated).toBe(true);
  expect(ids(views)).toEqual(Array.from({ length: MILESTONE_VIEW_MAX_DEALS }, (_, i) => i + 1));
  expect(chunks.flat().length).toBeLessThan(MILESTONE_VIEW_MAX_DEALS + 100);
  expect(chunks.flat()).toContain(MILESTONE_VIEW_MAX_DEALS + 1);
});

it('the JSON answer is what serializing the object keyed by milestone gives, built from the measured views', async () => {
  const milestones = ['Open', 'Won "big"', 'Lost\u2028', 'Empty'];
  const deals = [
    { _id: 1, milestone: 'Won "big"', name: 'a</b>' },
    { _id: 2, milestone: 'Open', name: 'ü' },
    { _id: 3, milestone: 'Lost\u2028', name: '\\' },
    { _id: 4, milestone: 'Open', name: 'x' },
  ];
  async function* docs() {
    yield deals.map((d) => ({ ...d, contact_ids: [] }) as unknown as DealDoc);
  }
  const present = async (chunk: DealDoc[]) => chunk.map((d) => ({ ...(d as unknown as Record<string, unknown>), contact_ids: undefined }) as unknown as DealView);
  const shown = await milestoneViewDeals(docs, present, 'json');
  const text = milestoneViewJson(milestones, shown);
  const expected = Object.fromEntries(milestones.map((name) => [name, shown.views.filter((v) => v.milestone === name)]));
  expect(text).toBe(JSON.stringify(expected));
  expect(Object.keys(JSON.parse(text))).toEqual(milestones);
  expect(JSON.parse(text).Open.map((d: { _id: number }) => d._id)).toEqual([2, 4]);
  expect(JSON.parse(text).Empty).toEqual([]);
});
