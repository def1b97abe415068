import request from 'supertest';
import { dealHelpers } from './deal-helpers';
import { expectError, storedState } from './expectations';
import { person, setupCrmApp, type TestUser } from './setup-app';

/**
 * The original's remaining note and deal calls (issue 25, part 6): POST contacts/notes/bulk,
 * PUT opportunity/partial-update/delete-contact, POST deal/filters/filter/dynamic-filter; and
 * searchable custom fields found by search and by the deal filter.
 */
const ctx = setupCrmApp();
const h = dealHelpers(ctx);
const FORM = 'application/x-www-form-urlencoded';
const Notes = () => ctx.connection.collection<{ _id: number; account: number }>('notes');
const Tasks = () => ctx.connection.collection<{ _id: number; notes: number[] }>('tasks');

let ann: TestUser;
let zed: TestUser;
beforeEach(async () => {
  await ctx.connection.collection('deals').deleteMany({});
  await Notes().deleteMany({});
  await Tasks().deleteMany({});
  await ctx.connection.collection('custom_fields').deleteMany({});
  ann = await ctx.user('acme', 'ann@acme.test');
  zed = await ctx.user('other', 'zed@other.test');
});

const note = async (user: TestUser, extra: object = {}) => {
  const res = await ctx.as(user).post('/dev/api/notes').send({ subject: 'S', description: 'D', ...extra });
  expect(res.status).toBe(200);
  return res.body.id as number;
};
const ids = (res: request.Response) => (res.status === 204 ? [] : res.body.map((item: { id: number }) => item.id));

describe('POST /dev/api/contacts/notes/bulk', () => {
  const bulk = (user: TestUser, form: string) => ctx.as(user).post('/dev/api/contacts/notes/bulk').set('Content-Type', FORM).send(form);

  it('deletes the listed notes of the account as the documentation\'s curl sends them (204), whatever they relate, and takes them out of tasks', async () => {
    const track = await h.defaultTrack(ann);
    const deal = await h.createDeal(ann, track);
    const al = await h.contact(ann, 'Al');
    const [a, b, kept] = [await note(ann, { deal_ids: [deal.id] }), await note(ann, { contact_ids: [al.id] }), await note(ann)];
    const task = await ctx.as(ann).post('/dev/api/tasks').send({ subject: 'Call', type: 'CALL', priority_type: 'HIGH', due: 1_900_000_000, notes: [a, kept] });
    expect(task.status).toBe(200);
    const res = await bulk(ann, `ids=["${a}", ${b}]`);
    expect([res.status, res.text]).toEqual([204, '']);
    expect((await Notes().find().toArray()).map((n) => n._id)).toEqual([kept]);
    expect((await Tasks().findOne({ _id: task.body.id }))?.notes).toEqual([kept]);
    expect((await ctx.as(ann).get(`/dev/api/opportunity/${deal.id}`)).body.notes).toEqual([]);
  });

  it('skips ids of no note of the account (another account\'s notes stay) and takes a JSON body too', async () => {
    const theirs = await note(zed);
    const mine = await note(ann);
    const res = await ctx.as(ann).post('/dev/api/contacts/notes/bulk').send({ ids: [theirs, mine, 777] });
    expect(res.status).toBe(204);
    expect((await Notes().find().toArray()).map((n) => n._id)).toEqual([theirs]);
  });

  it.each([['ids=5'], ['ids=["x"]'], ['ids=[]'], [''], [`ids=${JSON.stringify(Array.from({ length: 1001 }, (_, i) => i + 1))}`], ['ids=[1]&colour=red']])(
    'answers 400 for %p and deletes nothing',
    async (form) => {
      await note(ann);
      const before = await storedState(ctx.connection);
      const res = await bulk(ann, form);
      expect(res.status).toBe(400);
      expect(res.body.error.fields.length).toBeGreaterThan(0);
      expect(await storedState(ctx.connection)).toEqual(before);
    },
  );
});

describe('PUT /dev/api/opportunity/partial-update/delete-contact', () => {
  const PATH = '/dev/api/opportunity/partial-update/delete-contact';

  it('takes the listed contacts out of the deal and changes nothing else (the documentation\'s body, ids as strings)', async () => {
    const [al, bo, cy] = [await h.contact(ann, 'Al'), await h.contact(ann, 'Bo'), await h.contact(ann, 'Cy')];
    const deal = await h.createDeal(ann, await h.defaultTrack(ann), { contact_ids: [al.id, bo.id, cy.id], custom_data: [{ name: 'k', value: 'v' }] });
    const res = await ctx.as(ann).put(PATH).send({ id: String(deal.id), contact_ids: [String(al.id), String(cy.id), '999'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...deal, contact_ids: [String(bo.id)], contacts: [expect.objectContaining({ id: bo.id })], updated_time: expect.any(Number) });
    expect((await h.Deal().findById(deal.id).lean())?.contact_ids).toEqual([bo.id]);
  });

  it('accepts a whole fetched deal and changes only its contacts', async () => {
    const al = await h.contact(ann, 'Al');
    const deal = await h.createDeal(ann, await h.defaultTrack(ann), { contact_ids: [al.id] });
    const fetched = (await ctx.as(ann).get(`/dev/api/opportunity/${deal.id}`)).body;
    const res = await ctx.as(ann).put(PATH).send({ ...fetched, name: 'Not applied' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Big deal', contact_ids: [] });
  });

  it('answers 404 for a deal the account has not (another account\'s) and 400 without id or contacts; nothing changes', async () => {
    const zo = await h.contact(zed, 'Zo');
    const theirs = await h.createDeal(zed, await h.defaultTrack(zed), { contact_ids: [zo.id] });
    await h.defaultTrack(ann);
    const before = await storedState(ctx.connection);
    expectError(await ctx.as(ann).put(PATH).send({ id: theirs.id, contact_ids: [zo.id] }), 404, 'deal_not_found');
    expectError(await ctx.as(ann).put(PATH).send({ contact_ids: [zo.id] }), 400, 'validation_failed', ['id']);
    expectError(await ctx.as(ann).put(PATH).send({ id: theirs.id, contact_ids: [] }), 400, 'validation_failed', ['contact_ids']);
    expectError(await ctx.as(ann).put(PATH).send({ id: theirs.id }), 400, 'validation_failed', ['contact_ids']);
    expect(await storedState(ctx.connection)).toEqual(before);
  });

  it('concurrent removals of different contacts lose none', async () => {
    const people = await Promise.all(['A', 'B', 'C', 'D', 'E'].map((name) => h.contact(ann, name)));
    const deal = await h.createDeal(ann, await h.defaultTrack(ann), { contact_ids: people.map((p) => p.id) });
    const answers = await Promise.all(people.slice(0, 4).map((p) => ctx.as(ann).put(PATH).send({ id: deal.id, contact_ids: [p.id] })));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect((await h.Deal().findById(deal.id).lean())?.contact_ids).toEqual([people[4].id]);
  });
});

describe('POST /dev/api/deal/filters/filter/dynamic-filter', () => {
  const PATH = '/dev/api/deal/filters/filter/dynamic-filter';
  const filter = (user: TestUser, form: string) => ctx.as(user).post(PATH).set('Content-Type', FORM).send(form);

  it('pages the account\'s deals matching the rules; contact_type may be left out', async () => {
    const track = await h.defaultTrack(ann);
    await h.createDeal(ann, track);
    const won = await h.createDeal(ann, track, { milestone: 'Won' });
    await h.createDeal(zed, await h.defaultTrack(zed), { milestone: 'Won' });
    const res = await filter(ann, `filterJson=${encodeURIComponent(JSON.stringify({ rules: [{ LHS: 'milestone', CONDITION: 'EQUALS', RHS: 'Won' }] }))}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([expect.objectContaining({ id: won.id, count: 1, entity_type: 'deal' })]);
    const none = await filter(ann, `filterJson=${encodeURIComponent(JSON.stringify({ rules: [{ LHS: 'milestone', CONDITION: 'EQUALS', RHS: 'Lost' }], contact_type: 'OPPORTUNITY' }))}`);
    expect([none.status, none.text]).toEqual([204, '']);
  });

  it('pages 10 deals by default, with a cursor', async () => {
    const track = await h.defaultTrack(ann);
    for (let i = 0; i < 11; i++) await h.createDeal(ann, track);
    const res = await filter(ann, 'filterJson={"rules":[]}');
    expect(res.body).toHaveLength(10);
    expect(res.body.at(-1).cursor).toEqual(expect.any(String));
  });

  it('answers 400 naming filterJson.contact_type for a contact type, and names a field that is no deal field', async () => {
    expectError(await filter(ann, 'filterJson={"rules":[],"contact_type":"PERSON"}'), 400, 'validation_failed', ['filterJson.contact_type']);
    expectError(await filter(ann, 'filterJson={"rules":[{"LHS":"Stage","CONDITION":"EQUALS","RHS":"x"}]}'), 400, 'validation_failed', ['filterJson.rules.0.LHS']);
  });

  it('finds deals by a searchable DEAL custom field (not by one that is not searchable)', async () => {
    await ctx.as(ann).post('/dev/api/custom-fields').send({ field_label: 'Stage', field_type: 'TEXT', scope: 'DEAL', searchable: true });
    await ctx.as(ann).post('/dev/api/custom-fields').send({ field_label: 'Hidden', field_type: 'TEXT', scope: 'DEAL' });
    const track = await h.defaultTrack(ann);
    const early = await h.createDeal(ann, track, { custom_data: [{ name: 'Stage', value: 'early' }, { name: 'Hidden', value: 'x' }] });
    const late = await h.createDeal(ann, track, { custom_data: [{ name: 'Stage', value: 'late' }] });
    const rule = (lhs: string, condition: string, rhs: string) => `filterJson=${encodeURIComponent(JSON.stringify({ rules: [{ LHS: lhs, CONDITION: condition, RHS: rhs }] }))}`;
    expect(ids(await filter(ann, rule('Stage', 'EQUALS', 'early')))).toEqual([early.id]);
    expect(ids(await filter(ann, rule('Stage', 'NOTEQUALS', 'early')))).toEqual([late.id]);
    expectError(await filter(ann, rule('Hidden', 'EQUALS', 'x')), 400, 'validation_failed', ['filterJson.rules.0.LHS']);
    // the other path serves the same for OPPORTUNITY
    const other = await ctx.as(ann).post('/dev/api/filters/filter/dynamic-filter').set('Content-Type', FORM).send(`filterJson=${encodeURIComponent(JSON.stringify({ rules: [{ LHS: 'Stage', CONDITION: 'EQUALS', RHS: 'late' }], contact_type: 'OPPORTUNITY' }))}`);
    expect(ids(other)).toEqual([late.id]);
  });
});

describe('GET /dev/api/search and searchable custom fields', () => {
  it('finds contacts by the start of a searchable custom field\'s value, not of one that is not searchable, nor another account\'s', async () => {
    await ctx.as(ann).post('/dev/api/custom-fields').send({ field_label: 'Member no', field_type: 'TEXT', searchable: true });
    await ctx.as(ann).post('/dev/api/custom-fields').send({ field_label: 'Secret', field_type: 'TEXT' });
    const custom = (name: string, value: string) => ({ type: 'CUSTOM', name, value });
    const al = await ctx.as(ann).post('/dev/api/contacts').send({ properties: [...person('Al').properties, custom('Member no', 'M-4711'), custom('Secret', 'S-1')] });
    await ctx.as(zed).post('/dev/api/contacts').send({ properties: [...person('Zo').properties, custom('Member no', 'M-4712')] });
    const found = await ctx.as(ann).get('/dev/api/search?q=M-47');
    expect(ids(found)).toEqual([al.body.id]);
    expect((await ctx.as(ann).get('/dev/api/search?q=S-1')).status).toBe(204);
    expect(ids(await ctx.as(ann).get('/dev/api/search?q=M-47&type=PERSON'))).toEqual([al.body.id]);
    expect((await ctx.as(ann).get('/dev/api/search?q=M-47&type=COMPANY')).status).toBe(204);
  });
});
