import { create as parseXml } from 'xmlbuilder2';
import { MILESTONE_VIEW_MAX_DEALS, TRUNCATED_HEADER } from '../src/deals/milestone-view';
import { PAGE_BUDGET_BYTES } from '../src/page-budget';
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
