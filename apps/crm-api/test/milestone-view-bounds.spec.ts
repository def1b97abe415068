import { create as parseXml } from 'xmlbuilder2';
import { DEAL_NOTES_SHOWN } from '../src/deals/deal.presenter';
import { MILESTONE_VIEW_MAX_DEALS, TRUNCATED_HEADER } from '../src/deals/milestone-view';
import { PAGE_BUDGET_BYTES } from '../src/http/page-budget';
import { dealHelpers, type Track } from './deal-helpers';
import { setupCrmApp, type TestUser } from './setup-app';

/** D8/D9 are unpaged by the spec's shape: bounded by a deal count and the page budget, and saying so. */
const ctx = setupCrmApp();
const h = dealHelpers(ctx);
const BASE = '/dev/api/opportunity';

let ann: TestUser;
let def: Track;
beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
  def = await h.defaultTrack(ann);
});

/** `n` deals stored straight away (creating a thousand through the API would take the suite's time), oldest first. */
async function storeDeals(n: number, fields: { description?: string; contact_ids?: number[] } = {}) {
  const first = (await h.Deal().countDocuments()) + 1;
  await h.Deal().insertMany(
    Array.from({ length: n }, (_, i) => ({
      _id: first + i,
      account: ann.account,
      name: `Deal ${first + i}`,
      expected_value: 1,
      pipeline_id: def.id,
      milestone: i % 2 ? 'Won' : 'Open',
      close_date: 1_900_000_000,
      owner_id: ann.id,
      created_time: 1_800_000_000 + first + i,
      updated_time: 1_800_000_000 + first + i,
      ...fields,
    })),
  );
}

const idsIn = (body: Record<string, Array<{ id: number }>>) => Object.values(body).flat().map((deal) => deal.id).sort((a, b) => a - b);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

it(`a track of at most ${MILESTONE_VIEW_MAX_DEALS} deals is shown whole, with no ${TRUNCATED_HEADER} header`, async () => {
  await storeDeals(MILESTONE_VIEW_MAX_DEALS);
  const res = await ctx.as(ann).get(`${BASE}/byMilestone`);
  expect(res.status).toBe(200);
  expect(res.headers[TRUNCATED_HEADER.toLowerCase()]).toBeUndefined();
  expect(idsIn(res.body)).toEqual(range(1, MILESTONE_VIEW_MAX_DEALS));
}, 60_000);

it(`more deals than ${MILESTONE_VIEW_MAX_DEALS}: the oldest ${MILESTONE_VIEW_MAX_DEALS} are shown (D8 and D9, JSON and XML) and ${TRUNCATED_HEADER}: true says more exist`, async () => {
  await storeDeals(MILESTONE_VIEW_MAX_DEALS + 5);
  for (const url of [`${BASE}/byMilestone`, `${BASE}/byPipeline/based?pipeline_id=${def.id}`]) {
    const res = await ctx.as(ann).get(url);
    expect(res.status).toBe(200);
    expect(res.headers[TRUNCATED_HEADER.toLowerCase()]).toBe('true');
    expect(idsIn(res.body)).toEqual(range(1, MILESTONE_VIEW_MAX_DEALS));
  }
  const xml = await ctx.as(ann).get(`${BASE}/byMilestone`).set('Accept', 'application/xml');
  expect(xml.status).toBe(200);
  expect(xml.headers[TRUNCATED_HEADER.toLowerCase()]).toBe('true');
  const parsed = parseXml(xml.text).end({ format: 'object' }) as { milestones: { milestone: Array<{ name: string; opportunity?: unknown }> } };
  const shown = parsed.milestones.milestone.flatMap((m) => (m.opportunity === undefined ? [] : [m.opportunity].flat()));
  expect(shown).toHaveLength(MILESTONE_VIEW_MAX_DEALS);
  // D10 pages through every deal of the track
  const page = await ctx.as(ann).get(`${BASE}/based?pipeline_id=${def.id}&page_size=10`);
  expect(page.status).toBe(200);
  expect(page.body[0].count).toBe(MILESTONE_VIEW_MAX_DEALS + 5);
}, 60_000);

it('deals whose answer would pass the page budget: the view stops before it, and says so', async () => {
  const description = '€'.repeat(10_000); // 30 kB of JSON each
  const fit = Math.floor(PAGE_BUDGET_BYTES / (3 * description.length));
  await storeDeals(fit + 20, { description });
  const res = await ctx.as(ann).get(`${BASE}/byMilestone`);
  expect(res.status).toBe(200);
  expect(res.headers[TRUNCATED_HEADER.toLowerCase()]).toBe('true');
  expect(Buffer.byteLength(res.text)).toBeLessThanOrEqual(PAGE_BUDGET_BYTES);
  const shown = idsIn(res.body);
  expect(shown).toEqual(range(1, shown.length)); // the oldest, none skipped
  expect(shown.length).toBeGreaterThan(fit - 10);
  expect(shown.length).toBeLessThan(fit + 20);
  // XML escapes more: the view shows fewer deals, still under the budget
  const xml = await ctx.as(ann).get(`${BASE}/byMilestone`).set('Accept', 'application/xml');
  expect(xml.status).toBe(200);
  expect(xml.headers[TRUNCATED_HEADER.toLowerCase()]).toBe('true');
  expect(Buffer.byteLength(xml.text)).toBeLessThanOrEqual(PAGE_BUDGET_BYTES);
}, 60_000);

describe(`a deal shows the ids of its ${DEAL_NOTES_SHOWN} oldest notes; its note list has them all`, () => {
  async function notesOf(deal: number, n: number): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < n; i += 10) {
      const batch = await Promise.all(Array.from({ length: Math.min(10, n - i) }, () => ctx.as(ann).post('/dev/api/notes').send({ subject: 's', description: 'd', deal_ids: [deal] })));
      for (const res of batch) {
        expect(res.status).toBe(200);
        ids.push(res.body.id);
      }
    }
    return ids.sort((a, b) => a - b);
  }

  it('one deal with more notes than shown (D4), and in a page beside a deal with few (D1): each shows its own oldest, none cut short', async () => {
    const busy = await h.createDeal(ann, def);
    const quiet = await h.createDeal(ann, def);
    const busyNotes = await notesOf(busy.id, 2 * DEAL_NOTES_SHOWN + 5); // more than a page of two deals reads at once
    const quietNotes = await notesOf(quiet.id, 3);
    const one = await ctx.as(ann).get(`${BASE}/${busy.id}`);
    expect(one.status).toBe(200);
    expect(one.body.notes).toEqual(busyNotes.slice(0, DEAL_NOTES_SHOWN).map(String));
    const page = await ctx.as(ann).get(`${BASE}?page_size=10`);
    expect(page.status).toBe(200);
    const byId = new Map(page.body.map((deal: { id: number; notes: string[] }) => [deal.id, deal.notes]));
    expect(byId.get(busy.id)).toEqual(busyNotes.slice(0, DEAL_NOTES_SHOWN).map(String));
    expect(byId.get(quiet.id)).toEqual(quietNotes.map(String));
    // every note of the deal, page by page
    const listed: number[] = [];
    let cursor = '';
    do {
      const res = await ctx.as(ann).get(`${BASE}/${busy.id}/notes?page_size=100${cursor && `&cursor=${encodeURIComponent(cursor)}`}`);
      expect(res.status).toBe(200);
      listed.push(...res.body.map((note: { id: number }) => note.id));
      cursor = res.body.at(-1)?.cursor ?? '';
    } while (cursor);
    expect(listed.sort((a, b) => a - b)).toEqual(busyNotes);
  }, 120_000);

  it('a few deals with few notes: every note id shown (the one read of them all)', async () => {
    const a = await h.createDeal(ann, def);
    const b = await h.createDeal(ann, def);
    const aNotes = await notesOf(a.id, 5);
    const both = await ctx.as(ann).post('/dev/api/notes').send({ subject: 's', description: 'd', deal_ids: [a.id, b.id] });
    expect(both.status).toBe(200);
    const page = await ctx.as(ann).get(`${BASE}?page_size=10`);
    const byId = new Map(page.body.map((deal: { id: number; notes: string[] }) => [deal.id, deal.notes]));
    expect(byId.get(a.id)).toEqual([...aNotes, both.body.id].map(String));
    expect(byId.get(b.id)).toEqual([String(both.body.id)]);
  }, 60_000);
});
