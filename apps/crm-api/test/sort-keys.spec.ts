import request from 'supertest';
import { dealHelpers } from './deal-helpers';
import { expectError } from './expectations';
import { company, person, setupCrmApp, type TestUser } from './setup-app';

const ctx = setupCrmApp();
const deals = dealHelpers(ctx);

type Item = { id: number; count?: number; cursor?: string };
type Times = { created_time: number; updated_time: number };

/** Times with ties on purpose: the id must break them, in the direction of the sort. */
const TIMES: Times[] = [
  { created_time: 300, updated_time: 900 },
  { created_time: 100, updated_time: 950 },
  { created_time: 300, updated_time: 900 },
  { created_time: 200, updated_time: 800 },
  { created_time: 100, updated_time: 990 },
  { created_time: 300, updated_time: 800 },
  { created_time: 250, updated_time: 900 },
];

/** The ids in the order `key` names: the field, then the id, both in the key's direction. */
function expectedOrder(docs: Array<Times & { id: number }>, key: string): number[] {
  const direction = key.startsWith('-') ? -1 : 1;
  const field = key.replace(/^-/, '') as keyof Times;
  return [...docs].sort((a, b) => (a[field] - b[field] || a.id - b.id) * direction).map((d) => d.id);
}

/** Follows cursors to the end; each page checked for count (first) and cursor (last only). */
async function walk(fetch: (cursor?: string) => Promise<request.Response>, total: number): Promise<number[]> {
  const seen: number[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < 20; n++) {
    const res = await fetch(cursor);
    expect(res.status).toBe(200);
    const page = res.body as Item[];
    expect(page[0].count).toBe(total);
    page.slice(0, -1).forEach((item) => expect(item.cursor).toBeUndefined());
    seen.push(...page.map((item) => item.id));
    cursor = page[page.length - 1].cursor;
    if (!cursor) return seen;
  }
  throw new Error('paging did not end');
}

let ann: TestUser;
let contacts: Array<Times & { id: number }>;

beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
  contacts = [];
  for (const [i, times] of TIMES.entries()) {
    const res = await ctx.as(ann).post('/dev/api/contacts').send(i % 2 ? company(`Co ${i}`) : person(`P${i}`));
    expect(res.status).toBe(200);
    await ctx.Contact.updateOne({ _id: res.body.id }, { $set: times });
    contacts.push({ id: res.body.id, ...times });
  }
});

describe('global_sort_key on C1 (GET /dev/api/contacts)', () => {
  it.each(['created_time', '-created_time', 'updated_time', '-updated_time'])('pages through every contact once, in %s order', async (key) => {
    const seen = await walk(
      (cursor) => ctx.as(ann).get('/dev/api/contacts').query({ page_size: 3, global_sort_key: key, ...(cursor && { cursor }) }),
      TIMES.length,
    );
    expect(seen).toEqual(expectedOrder(contacts, key));
  });

  it('orders by creation time when no key is sent (the spec order)', async () => {
    const res = await ctx.as(ann).get('/dev/api/contacts?page_size=50');
    expect(res.body.map((c: Item) => c.id)).toEqual(expectedOrder(contacts, 'created_time'));
  });

  it('keeps the order the cursor was issued for when a later page sends no key', async () => {
    const seen = await walk(
      (cursor) => ctx.as(ann).get('/dev/api/contacts').query(cursor ? { page_size: 2, cursor } : { page_size: 2, global_sort_key: '-updated_time' }),
      TIMES.length,
    );
    expect(seen).toEqual(expectedOrder(contacts, '-updated_time'));
  });

  it('refuses a cursor of another order with 400 invalid_cursor, in both directions of the same field', async () => {
    const first = await ctx.as(ann).get('/dev/api/contacts?page_size=2&global_sort_key=-created_time');
    const cursor = first.body[1].cursor;
    for (const key of ['created_time', 'updated_time', '-updated_time']) {
      expectError(await ctx.as(ann).get('/dev/api/contacts').query({ page_size: 2, global_sort_key: key, cursor }), 400, 'invalid_cursor', ['cursor']);
    }
    const plain = await ctx.as(ann).get('/dev/api/contacts?page_size=2');
    const again = await ctx.as(ann).get('/dev/api/contacts').query({ page_size: 2, global_sort_key: '-created_time', cursor: plain.body[1].cursor });
    expectError(again, 400, 'invalid_cursor', ['cursor']);
  });

  it('reads a quoted key, and refuses an unknown or miscased one naming the field', async () => {
    const quoted = await ctx.as(ann).get("/dev/api/contacts?page_size=50&global_sort_key='-created_time'");
    expect(quoted.status).toBe(200);
    expect(quoted.body.map((c: Item) => c.id)).toEqual(expectedOrder(contacts, '-created_time'));
    for (const key of ['name', '-Created_time', '--created_time', 'created_time ', '_id', '']) {
      expectError(await ctx.as(ann).get('/dev/api/contacts').query({ global_sort_key: key }), 400, 'validation_failed', ['global_sort_key']);
    }
  });
});

describe('global_sort_key on the companies list (form call)', () => {
  const companies = () => contacts.filter((_c, i) => i % 2 === 1);

  it.each(['-created_time', 'updated_time'])('pages through every company once in %s order, as the PHP client sends it', async (key) => {
    const seen = await walk((cursor) => {
      const form = `page_size=1&global_sort_key=${encodeURIComponent(key)}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      return ctx.as(ann).post('/dev/api/contacts/companies/list').set('Content-Type', 'application/x-www-form-urlencoded').send(form);
    }, companies().length);
    expect(seen).toEqual(expectedOrder(companies(), key));
  });
});

describe('global_sort_key on deals (D1, D10)', () => {
  let dealTimes: Array<Times & { id: number }>;

  beforeEach(async () => {
    const track = await deals.defaultTrack(ann);
    dealTimes = [];
    for (const times of TIMES.slice(0, 5)) {
      const deal = await deals.createDeal(ann, track);
      await deals.Deal().updateOne({ _id: deal.id }, { $set: times });
      dealTimes.push({ id: deal.id, ...times });
    }
  });

  it.each(['-created_time', 'updated_time', '-updated_time'])('D1 pages through every deal once in %s order', async (key) => {
    const seen = await walk((cursor) => ctx.as(ann).get('/dev/api/opportunity').query({ page_size: 2, global_sort_key: key, ...(cursor && { cursor }) }), 5);
    expect(seen).toEqual(expectedOrder(dealTimes, key));
  });

  it('D10 takes it too, and refuses a D1 cursor', async () => {
    const seen = await walk(
      (cursor) => ctx.as(ann).get('/dev/api/opportunity/based').query({ pipeline_id: 0, page_size: 2, global_sort_key: '-updated_time', ...(cursor && { cursor }) }),
      5,
    );
    expect(seen).toEqual(expectedOrder(dealTimes, '-updated_time'));
    const d1 = await ctx.as(ann).get('/dev/api/opportunity?page_size=2&global_sort_key=-updated_time');
    const res = await ctx.as(ann).get('/dev/api/opportunity/based').query({ pipeline_id: 0, global_sort_key: '-updated_time', cursor: d1.body[1].cursor });
    expectError(res, 400, 'invalid_cursor', ['cursor']);
  });
});
