import request from 'supertest';
import { dealHelpers } from './deal-helpers';
import { expectError } from './expectations';
import { company, person, setupCrmApp, type TestUser } from './setup-app';

/** POST /dev/api/filters/filter/dynamic-filter, with the shapes of the original's REST documentation (1.21, 12.x). */
const ctx = setupCrmApp();
const deals = dealHelpers(ctx);
const PATH = '/dev/api/filters/filter/dynamic-filter';
const DAY_MS = 86_400_000;

let ann: TestUser;
let zed: TestUser;
beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
  zed = await ctx.user('other', 'zed@other.test');
});

/** The form exactly as the documentation's curl examples write it (unencoded JSON inside the form value). */
const filter = (user: TestUser, form: string) => ctx.as(user).post(PATH).set('Content-Type', 'application/x-www-form-urlencoded').send(form);
const rules = (list: object[], extra: object = {}) => encodeURIComponent(JSON.stringify({ rules: list, or_rules: [], contact_type: 'PERSON', ...extra }));
const idsOf = (res: request.Response) => (res.status === 204 ? [] : res.body.map((c: { id: number }) => c.id));

async function create(user: TestUser, body: object, times?: { created_time?: number; updated_time?: number }): Promise<number> {
  const res = await ctx.as(user).post('/dev/api/contacts').send(body);
  expect(res.status).toBe(200);
  if (times) await ctx.Contact.updateOne({ _id: res.body.id }, { $set: times });
  return res.body.id;
}

describe('contacts by tag and by property', () => {
  it('EQUALS / NOTEQUALS on tags and on a custom field, within the account and the contact type', async () => {
    const custom = (value: string) => ({ type: 'CUSTOM', name: 'EmployeeDataCustom', value });
    const a = await create(ann, person('A', undefined, { tags: ['linkedin prospect', 'paid'] }));
    const b = await create(ann, { properties: [{ type: 'SYSTEM', name: 'first_name', value: 'B' }, custom('prospect001')], tags: ['paid'] });
    const c = await create(ann, person('C'));
    await create(ann, company('Co', { properties: [{ type: 'SYSTEM', name: 'name', value: 'Co' }, custom('prospect001')] }));
    await create(zed, person('Z', undefined, { tags: ['linkedin prospect'] }));

    // the documentation's example 1.21.A, byte for byte in the form
    const byTag = await filter(ann, 'page_size=25&global_sort_key=-created_time&filterJson={"rules":[{"LHS":"tags","CONDITION":"EQUALS","RHS":"linkedin prospect"}],"contact_type":"PERSON"}');
    expect(byTag.status).toBe(200);
    expect(byTag.body).toEqual([expect.objectContaining({ id: a, type: 'PERSON', count: 1, domainUser: expect.objectContaining({ email: 'ann@acme.test' }) })]);

    expect(idsOf(await filter(ann, `filterJson=${rules([{ LHS: 'EmployeeDataCustom', CONDITION: 'EQUALS', RHS: 'prospect001' }])}`))).toEqual([b]);
    expect(idsOf(await filter(ann, `filterJson=${rules([{ LHS: 'EmployeeDataCustom', CONDITION: 'EQUALS', RHS: 'prospect001' }], { contact_type: 'COMPANY' })}`))).toHaveLength(1);
    expect(idsOf(await filter(ann, `filterJson=${rules([{ LHS: 'tags', CONDITION: 'NOTEQUALS', RHS: 'paid' }])}`))).toEqual([c]);
    expect(idsOf(await filter(ann, `filterJson=${rules([{ LHS: 'first_name', CONDITION: 'NOTEQUALS', RHS: 'A' }])}&global_sort_key=created_time`))).toEqual([b, c]);
    // case-sensitive, like every value
    expect((await filter(ann, `filterJson=${rules([{ LHS: 'tags', CONDITION: 'EQUALS', RHS: 'Paid' }])}`)).status).toBe(204);
  });

  it('rules all hold; or_rules need one (documentation 12.4)', async () => {
    const vip = await create(ann, person('V', undefined, { tags: ['VIP'] }));
    const paid = await create(ann, person('P', undefined, { tags: ['paid'] }));
    const both = await create(ann, person('B', undefined, { tags: ['VIP', 'paid', 'old'] }));
    await create(ann, person('N'));
    const anyOf = encodeURIComponent(
      JSON.stringify({ rules: [], or_rules: [{ LHS: 'tags', CONDITION: 'EQUALS', RHS: 'VIP' }, { LHS: 'tags', CONDITION: 'EQUALS', RHS: 'paid' }], contact_type: 'PERSON' }),
    );
    expect(idsOf(await filter(ann, `page_size=10&global_sort_key=created_time&filterJson=${anyOf}`))).toEqual([vip, paid, both]);
    const allAndAny = encodeURIComponent(
      JSON.stringify({
        rules: [{ LHS: 'tags', CONDITION: 'EQUALS', RHS: 'old' }],
        or_rules: [{ LHS: 'tags', CONDITION: 'EQUALS', RHS: 'VIP' }, { LHS: 'tags', CONDITION: 'EQUALS', RHS: 'nope' }],
        contact_type: 'PERSON',
      }),
    );
    expect(idsOf(await filter(ann, `filterJson=${allAndAny}`))).toEqual([both]);
  });
});

describe('time rules (RHS in epoch milliseconds; times stored in seconds)', () => {
  const day = Date.UTC(2019, 10, 1); // 1572566400000
  const s = (ms: number) => Math.floor(ms / 1000);

  it('ON the UTC day, AFTER, BEFORE, BETWEEN (inclusive) and LAST n days', async () => {
    const now = s(Date.now());
    const onDay = await create(ann, person('On'), { updated_time: s(day + 3_600_000), created_time: s(day) });
    const dayBefore = await create(ann, person('Before'), { updated_time: s(day - 1000), created_time: s(day - DAY_MS) });
    const dayAfter = await create(ann, person('After'), { updated_time: s(day + DAY_MS), created_time: s(day + DAY_MS) });
    const recent = await create(ann, person('Recent'), { updated_time: now - 3600, created_time: now - 3600 });
    const rule = (CONDITION: string, RHS: unknown, RHS_NEW?: unknown) => `global_sort_key=created_time&filterJson=${rules([{ LHS: 'updated_time', CONDITION, RHS, ...(RHS_NEW !== undefined && { RHS_NEW }) }])}`;

    expect(idsOf(await filter(ann, rule('ON', day + 1234)))).toEqual([onDay]);
    expect(idsOf(await filter(ann, rule('AFTER', day + DAY_MS - 1)))).toEqual([dayAfter, recent]);
    expect(idsOf(await filter(ann, rule('BEFORE', day)))).toEqual([dayBefore]);
    expect(idsOf(await filter(ann, rule('BETWEEN', day - 1000, day + DAY_MS)))).toEqual([dayBefore, onDay, dayAfter]);
    expect(idsOf(await filter(ann, rule('LAST', '1')))).toEqual([recent]);
    expect(idsOf(await filter(ann, rule('ON', String(day))))).toEqual([onDay]);
  });

  it('deals (contact_type OPPORTUNITY, documentation 12.6) by time and milestone', async () => {
    const track = await deals.defaultTrack(ann);
    const d1 = await deals.createDeal(ann, track);
    const d2 = await deals.createDeal(ann, track, { milestone: 'Won' });
    await deals.Deal().updateOne({ _id: d1.id }, { $set: { updated_time: s(day + 60_000) } });
    const byTime = `filterJson={"rules":[{"LHS":"updated_time","CONDITION":"ON","RHS":${day}}],"or_rules":[],"contact_type":"OPPORTUNITY"}`;
    // a page holds at most 200, deals as contacts (the byte budget may end it earlier: README "Limits")
    const tooLarge = await filter(ann, `page_size=201&${byTime}`);
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.error.fields).toEqual([{ field: 'page_size', message: 'must be a whole number from 1 to 200' }]);
    const res = await filter(ann, `page_size=200&${byTime}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([expect.objectContaining({ id: d1.id, name: 'Big deal', count: 1, entity_type: 'deal' })]);
    const won = await filter(ann, `filterJson=${rules([{ LHS: 'milestone', CONDITION: 'EQUALS', RHS: 'Won' }], { contact_type: 'OPPORTUNITY' })}`);
    expect(idsOf(won)).toEqual([d2.id]);
  });
});

describe('XML answers use the names of src/xml-names.ts', () => {
  it('deals are a <collection> of <opportunity> (as D1), contacts a <contacts> of <contact> (as C1)', async () => {
    const track = await deals.defaultTrack(ann);
    const deal = await deals.createDeal(ann, track, { milestone: 'Won' });
    const wonDeals = await filter(ann, `filterJson=${rules([{ LHS: 'milestone', CONDITION: 'EQUALS', RHS: 'Won' }], { contact_type: 'OPPORTUNITY' })}`).set('Accept', 'application/xml');
    expect(wonDeals.status).toBe(200);
    expect(wonDeals.headers['content-type']).toMatch(/^application\/xml/);
    expect(wonDeals.text).toMatch(new RegExp(`^<\\?xml[^>]*\\?><collection><opportunity><id>${deal.id}</id>.*</opportunity></collection>$`, 's'));
    const d1 = await ctx.as(ann).get('/dev/api/opportunity').set('Accept', 'application/xml');
    expect(wonDeals.text).toBe(d1.text);

    const vip = await create(ann, person('V', undefined, { tags: ['VIP'] }));
    const persons = await filter(ann, `filterJson=${rules([{ LHS: 'tags', CONDITION: 'EQUALS', RHS: 'VIP' }])}`).set('Accept', 'application/xml');
    expect(persons.status).toBe(200);
    expect(persons.text).toMatch(new RegExp(`^<\\?xml[^>]*\\?><contacts><contact><id>${vip}</id>.*</contact></contacts>$`, 's'));
  });
});

describe('paging', () => {
  it('pages with count and cursor in the order of global_sort_key; a cursor of another filter is a 400', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await create(ann, person(`P${i}`, undefined, { tags: ['Lead'] }), { created_time: 1000 + i }));
    const form = (cursor?: string) => `page_size=2&global_sort_key=-created_time&filterJson=${rules([{ LHS: 'tags', CONDITION: 'EQUALS', RHS: 'Lead' }])}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const seen: number[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const res = await filter(ann, form(cursor));
      expect(res.status).toBe(200);
      expect(res.body[0].count).toBe(5);
      seen.push(...idsOf(res));
      cursor = res.body[res.body.length - 1].cursor;
      if (!cursor) break;
    }
    expect(seen).toEqual([...ids].reverse());
    const first = await filter(ann, form());
    const other = `page_size=2&global_sort_key=-created_time&filterJson=${rules([{ LHS: 'tags', CONDITION: 'NOTEQUALS', RHS: 'Lead' }])}&cursor=${encodeURIComponent(first.body[1].cursor)}`;
    expectError(await filter(ann, other), 400, 'invalid_cursor', ['cursor']);
  });
});

describe('bad filters are a 400 naming the place', () => {
  it.each<[string, string]>([
    ['filterJson={"rules":[],"or_rules":[{"LHS":"updated_time","CONDITION":"BETWEEN","RHS":1,"RHS_NEW":2}],"contact_type":"PERSON"', 'filterJson'],
    [`filterJson=${rules([{ LHS: 'tags', CONDITION: 'CONTAINS', RHS: 'a' }])}`, 'filterJson.rules.0.CONDITION'],
    [`filterJson=${rules([{ LHS: 'tags', CONDITION: 'EQUALS', RHS: 'a.b' }])}`, 'filterJson.rules.0.RHS'],
    [`filterJson=${rules([{ LHS: 'tags', CONDITION: 'EQUALS', RHS: '$gt' }])}`, 'filterJson.rules.0.RHS'],
    [`filterJson=${rules([{ LHS: 'updated_time', CONDITION: 'ON', RHS: 'yesterday' }])}`, 'filterJson.rules.0.RHS'],
    [`filterJson=${rules([{ LHS: 'updated_time', CONDITION: 'BETWEEN', RHS: 5000, RHS_NEW: 1000 }])}`, 'filterJson.rules.0.RHS_NEW'],
    [`filterJson=${rules([{ LHS: 'updated_time', CONDITION: 'LAST', RHS: 0 }])}`, 'filterJson.rules.0.RHS'],
    [`filterJson=${rules([{ LHS: 'first_name', CONDITION: 'EQUALS', RHS: { $ne: 1 } }])}`, 'filterJson.rules.0.RHS'],
    [`filterJson=${rules([{ LHS: 'first_name', CONDITION: 'EQUALS', RHS: 1 }])}`, 'filterJson.rules.0.RHS'],
    [`filterJson=${rules([{ LHS: 'name', CONDITION: 'EQUALS', RHS: 'x' }], { contact_type: 'OPPORTUNITY' })}`, 'filterJson.rules.0.LHS'],
    [`filterJson=${rules([{ LHS: 'tags', CONDITION: 'EQUALS', RHS: 'a', extra: 1 }])}`, 'filterJson.rules.0.extra'],
    [`filterJson=${rules([], { contact_type: 'person' })}`, 'filterJson.contact_type'],
    [`filterJson=${rules(Array.from({ length: 21 }, () => ({ LHS: 'tags', CONDITION: 'EQUALS', RHS: 'a' })))}`, 'filterJson.rules'],
    [`filterJson=${encodeURIComponent(JSON.stringify({ rules: [], pad: 'x'.repeat(10_001) }))}`, 'filterJson'],
    [`filterJson=${rules([])}&global_sort_key=name`, 'global_sort_key'],
    [`filterJson=${rules([])}&page_size=0`, 'page_size'],
    // single quotes (the Java client's filterJson) are read; nothing else beyond JSON is
    [`filterJson=${encodeURIComponent("{'rules':[{'LHS':'tags','CONDITION':'LIKE','RHS':'a'}],'contact_type':'PERSON'}")}`, 'filterJson.rules.0.CONDITION'],
    [`filterJson=${encodeURIComponent("{'rules':[{'LHS':'tags','CONDITION':'EQUALS','RHS':'a'}],'contact_type':'person'}")}`, 'filterJson.contact_type'],
    [`filterJson=${encodeURIComponent("{rules:[{'LHS':'tags','CONDITION':'EQUALS','RHS':'a'}]}")}`, 'filterJson'],
    [`filterJson=${encodeURIComponent("{'rules':[{'LHS':'tags','CONDITION':'EQUALS','RHS':'a'},],}")}`, 'filterJson'],
    [`filterJson=${encodeURIComponent("{'rules':[{'LHS':'tags','CONDITION':'EQUALS','RHS':'O'Neil'}]}")}`, 'filterJson'],
    ['page_size=5', 'filterJson'],
  ])('refuses bad case %#, naming the field', async (form, field) => {
    expectError(await filter(ann, form), 400, 'validation_failed', [field]);
  });

  it('reports every bad rule at once', async () => {
    const res = await filter(ann, `filterJson=${rules([{ LHS: 'tags', CONDITION: 'X', RHS: 'a' }, { LHS: 'created_time', CONDITION: 'ON', RHS: -1 }])}`);
    expectError(res, 400, 'validation_failed', ['filterJson.rules.0.CONDITION', 'filterJson.rules.1.RHS']);
  });
});
