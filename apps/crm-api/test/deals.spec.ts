import request from 'supertest';
import { create as parseXml } from 'xmlbuilder2';
import { dealHelpers, type Track } from './deal-helpers';
import { expectError } from './expectations';
import { setupCrmApp, type TestUser } from './setup-app';

/** D1–D12 and partial-update: deals. */
const ctx = setupCrmApp();
const h = dealHelpers(ctx);
const BASE = '/dev/api/opportunity';

type Deal = Record<string, unknown> & { id: number; count?: number; cursor?: string };

let ann: TestUser, bea: TestUser, zed: TestUser;
let def: Track;
let sales: Track;
beforeEach(async () => {
  ({ ann, colleague: bea, zed } = await ctx.threeUsers('bea'));
  def = await h.defaultTrack(ann);
  sales = await h.createTrack(ann, 'Sales', 'Lead,Demo,Won');
});

const ids = (items: { id: number }[]) => items.map((d) => d.id);
const stored = (id: number) => h.Deal().findById(id).lean();
const dealCount = () => h.Deal().countDocuments();

describe('D3: create', () => {
  it('creates a deal: every field, the owner, related contacts as full contact objects, the track name', async () => {
    const al = await h.contact(ann, 'Al', 'al@x.test');
    const bo = await h.contact(ann, 'Bo');
    const body = {
      name: 'Website',
      description: 'Redesign',
      expected_value: 1_000_000_000_000,
      pipeline_id: sales.id,
      milestone: 'Demo',
      probability: 60,
      close_date: 1_800_000_000,
      owner_id: String(bea.id),
      contact_ids: [String(al.id), bo.id, al.id],
      custom_data: [{ name: 'Source', value: 'Referral' }],
    };
    const before = Math.floor(Date.now() / 1000);
    const res = await ctx.as(ann).post(BASE).send(body);
    const after = Math.ceil(Date.now() / 1000);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const contactAl = (await ctx.as(ann).get(`/dev/api/contacts/${al.id}`)).body;
    const contactBo = (await ctx.as(ann).get(`/dev/api/contacts/${bo.id}`)).body;
    // every field sent comes back as sent, but contact_ids without the repeat
    expect(res.body).toEqual({
      ...body,
      id: expect.any(Number),
      created_time: expect.any(Number),
      updated_time: expect.any(Number),
      contact_ids: [String(al.id), String(bo.id)],
      contacts: [contactAl, contactBo],
      deal_source_id: 0,
      notes: [],
      entity_type: 'deal',
      track: 'Sales',
      owner: expect.objectContaining({ id: bea.id, email: 'bea@acme.test', password: '**********' }),
    });
    expect(res.body.created_time).toBeGreaterThanOrEqual(before);
    expect(res.body.created_time).toBeLessThanOrEqual(after);
    expect(await stored(res.body.id)).toMatchObject({ account: ann.account, pipeline_id: sales.id, milestone: 'Demo', owner_id: bea.id, contact_ids: [al.id, bo.id], expected_value: 1e12 });
  });

  it('optional fields take their defaults; numbers may come as digit strings', async () => {
    const res = await ctx.as(ann).post(BASE).send({ name: 'Small', expected_value: '250', pipeline_id: String(def.id), milestone: 'Won', close_date: '1700000000', owner_id: ann.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ description: '', probability: 0, expected_value: 250, close_date: 1_700_000_000, contacts: [], contact_ids: [], custom_data: [], notes: [], track: 'Default', owner_id: String(ann.id) });
  });

  it('a fetched deal sent back to D4 unchanged is accepted and changes nothing but updated_time', async () => {
    const al = await h.contact(ann, 'Al');
    const created = await h.createDeal(ann, sales, { contact_ids: [al.id] });
    const res = await ctx.as(ann).put(BASE).send(created);
    expect(res.status).toBe(200);
    expect({ ...res.body, updated_time: 0 }).toEqual({ ...created, updated_time: 0 });
  });

  const bad: Array<[string, object, string, RegExp]> = [
    ['a missing name', { name: undefined }, 'name', /is required/],
    ['an empty name', { name: ' ' }, 'name', /must not be empty/],
    ['a missing expected_value', { expected_value: undefined }, 'expected_value', /is required/],
    ['expected_value over 10^12', { expected_value: 1_000_000_000_001 }, 'expected_value', /from 0 to 1000000000000/],
    ['a negative expected_value', { expected_value: -1 }, 'expected_value', /from 0 to/],
    ['a fractional expected_value', { expected_value: 10.5 }, 'expected_value', /whole number/],
    ['a missing pipeline_id', { pipeline_id: undefined }, 'pipeline_id', /is required/],
    ['a missing milestone', { milestone: undefined }, 'milestone', /is required/],
    ['a missing close_date', { close_date: undefined }, 'close_date', /is required/],
    ['a close_date that is text', { close_date: 'tomorrow' }, 'close_date', /whole number/],
    ['a missing owner_id', { owner_id: undefined }, 'owner_id', /is required/],
    ['probability over 100', { probability: 101 }, 'probability', /from 0 to 100/],
    ['a negative probability', { probability: -1 }, 'probability', /from 0 to 100/],
    ['an unknown field', { colour: 'red' }, 'colour', /not an accepted field/],
    ['a $ field', { contact_ids: [{ $gt: 0 }] }, '$gt', /\$gt/],
  ];
  it.each(bad)('400 for %s, naming the field; nothing stored', async (_case, change, field, message) => {
    const res = await ctx.as(ann).post(BASE).send(h.dealBody(ann, sales, change));
    expect(res.status).toBe(400);
    expect(res.body.error.fields?.map((f: { field: string }) => f.field) ?? [res.body.error.message]).toContainEqual(expect.stringContaining(field));
    expect(res.body.error.message).toMatch(message);
    expect(await dealCount()).toBe(0);
  });

  it('a milestone of another track, or no milestone at all, is a 400 listing the valid milestones; nothing stored', async () => {
    const res = await ctx.as(ann).post(BASE).send(h.dealBody(ann, sales, { milestone: 'Open' }));
    expectError(res, 400, 'validation_failed', ['milestone']);
    expect(res.body.error.fields[0].message).toBe('"Open" is not a milestone of the track Sales; use one of: Lead, Demo, Won');
    const other = await ctx.as(ann).post(BASE).send(h.dealBody(ann, def, { milestone: 'Demo' }));
    expect(other.body.error.fields[0].message).toBe('"Demo" is not a milestone of the track Default; use one of: Open, New, Prospect, Proposal, Won, Lost');
    expect(await dealCount()).toBe(0);
  });

  it('a milestone in the wrong letter case is accepted and stored as typed, but the deal is in no milestone view (spec)', async () => {
    const res = await ctx.as(ann).post(BASE).send(h.dealBody(ann, sales, { milestone: 'demo' }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ milestone: 'demo', pipeline_id: sales.id, track: 'Sales' });
    expect(await stored(res.body.id)).toMatchObject({ milestone: 'demo' });
    expect((await ctx.as(ann).get(`${BASE}/${res.body.id}`)).body.milestone).toBe('demo');
    const view = await ctx.as(ann).get(`${BASE}/byPipeline/based?pipeline_id=${sales.id}`);
    expect(view.body).toEqual({ Lead: [], Demo: [], Won: [] });
    const won = await ctx.as(ann).post(BASE).send(h.dealBody(ann, def, { milestone: 'WON' }));
    expect(won.status).toBe(200);
    expect((await ctx.as(ann).get(`${BASE}/byMilestone`)).body.Won).toEqual([]);
    expect(ids((await ctx.as(ann).get(BASE)).body)).toEqual([res.body.id, won.body.id]);
  });

  it('references must be of the account: track, owner and contacts; every problem named at once', async () => {
    const theirTrack = await h.defaultTrack(zed);
    const theirContact = await h.contact(zed, 'Zoe');
    const res = await ctx.as(ann).post(BASE).send(h.dealBody(ann, sales, { pipeline_id: theirTrack.id, milestone: 'Open', owner_id: zed.id, contact_ids: [theirContact.id, 999_999] }));
    expectError(res, 400, 'validation_failed', ['pipeline_id', 'owner_id', 'contact_ids']);
    expect(res.body.error.fields).toEqual([
      { field: 'pipeline_id', message: `names no track of this account (${theirTrack.id})` },
      { field: 'owner_id', message: `names no user of this account (${zed.id})` },
      { field: 'contact_ids', message: `name no contact of this account: ${theirContact.id}, 999999` },
    ]);
    expect(await dealCount()).toBe(0);
  });

  it('pipeline_id 0 or 1 names no track', async () => {
    for (const pipeline_id of [0, 1]) {
      const res = await ctx.as(ann).post(BASE).send(h.dealBody(ann, def, { pipeline_id }));
      expect(res.status).toBe(400);
    }
    expect(await dealCount()).toBe(0);
  });

  it('with the id of a deal of the account, D3 replaces that deal', async () => {
    const created = await h.createDeal(ann, sales);
    const res = await ctx.as(ann).post(BASE).send(h.dealBody(ann, sales, { id: created.id, name: 'Renamed', milestone: 'Won' }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, name: 'Renamed', milestone: 'Won', created_time: created.created_time });
    expect(await dealCount()).toBe(1);
  });

  it('with an id of no deal of the account, D3 is a 404 and creates nothing', async () => {
    const theirs = await h.createDeal(zed, await h.defaultTrack(zed));
    for (const id of [theirs.id, 999_999]) {
      const res = await ctx.as(ann).post(BASE).send(h.dealBody(ann, sales, { id }));
      expectError(res, 404, 'deal_not_found');
      expect(res.body.error.message).toBe(`No deal with id ${id}`);
    }
    expect(await dealCount()).toBe(1);
    expect((await stored(theirs.id))!.account).toBe(zed.account);
  });

  it('answers XML when asked: <opportunity> (the original\'s name) with repeated contacts elements', async () => {
    const al = await h.contact(ann, 'Al');
    const res = await ctx.as(ann).post(BASE).set('Accept', 'application/xml').send(h.dealBody(ann, sales, { contact_ids: [al.id] }));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    const xml = parseXml(res.text).end({ format: 'object' }) as unknown as { opportunity: Record<string, unknown> };
    expect(xml.opportunity).toMatchObject({ name: 'Big deal', milestone: 'Lead', track: 'Sales', entity_type: 'deal', contact_ids: String(al.id), contacts: { id: String(al.id), type: 'PERSON' } });
  });

  it('errors answer XML when XML was asked for', async () => {
    const res = await ctx.as(ann).post(BASE).set('Accept', 'application/xml').send(h.dealBody(ann, sales, { milestone: 'Lost' }));
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    expect(res.text).toContain('<error><status>400</status><code>validation_failed</code><message>milestone: "Lost" is not a milestone of the track Sales');
    const missing = await ctx.as(ann).put(`${BASE}/partial-update`).set('Accept', 'application/xml').send({ id: 999_999, name: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('<code>deal_not_found</code><message>No deal with id 999999</message>');
    expect(await dealCount()).toBe(0);
  });

  it('malformed JSON is a 400 invalid_body', async () => {
    const res = await ctx.as(ann).post(BASE).set('Content-Type', 'application/json').send('{"name": ');
    expectError(res, 400, 'invalid_body');
    expect(await dealCount()).toBe(0);
  });
});

describe('D4: replace', () => {
  it('replaces the whole deal: optional fields not sent return to their defaults', async () => {
    const al = await h.contact(ann, 'Al');
    const created = await h.createDeal(ann, sales, { description: 'x', probability: 50, contact_ids: [al.id] });
    const res = await ctx.as(ann).put(BASE).send(h.dealBody(bea, def, { id: created.id, name: 'Moved', milestone: 'Won' }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, name: 'Moved', pipeline_id: def.id, milestone: 'Won', track: 'Default', owner_id: String(bea.id), description: '', probability: 0, contacts: [] });
    expect(await stored(created.id)).toMatchObject({ pipeline_id: def.id, milestone: 'Won', owner_id: bea.id, contact_ids: [] });
  });

  it('400 without an id; 404 for another account’s deal; the rules of create apply', async () => {
    const created = await h.createDeal(ann, sales);
    expectError(await ctx.as(ann).put(BASE).send(h.dealBody(ann, sales)), 400, 'validation_failed', ['id']);
    const theirs = await h.createDeal(zed, await h.defaultTrack(zed));
    expectError(await ctx.as(ann).put(BASE).send(h.dealBody(ann, sales, { id: theirs.id })), 404, 'deal_not_found');
    expectError(await ctx.as(ann).put(BASE).send(h.dealBody(ann, sales, { id: created.id, milestone: 'Lost' })), 400, 'validation_failed', ['milestone']);
    expectError(await ctx.as(ann).put(BASE).send({ id: created.id, name: 'Only a name' }), 400, 'validation_failed', ['expected_value', 'pipeline_id', 'milestone', 'close_date', 'owner_id']);
    expect(await stored(created.id)).toMatchObject({ name: 'Big deal', milestone: 'Lead' });
  });
});

describe('partial-update', () => {
  const patch = (user: TestUser, body: object) => ctx.as(user).put(`${BASE}/partial-update`).send(body);

  it('changes only the sent fields', async () => {
    const al = await h.contact(ann, 'Al');
    const created = await h.createDeal(ann, sales, { description: 'keep', probability: 40, contact_ids: [al.id] });
    const res = await patch(ann, { id: created.id, expected_value: 99, milestone: 'Won' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...created, expected_value: 99, milestone: 'Won', updated_time: expect.any(Number) });
  });

  it('moves a deal to another track: the milestone must be one of the new track', async () => {
    const created = await h.createDeal(ann, sales, { milestone: 'Won' });
    // Won exists in both tracks: moving the track alone is fine
    expect((await patch(ann, { id: created.id, pipeline_id: def.id })).body).toMatchObject({ pipeline_id: def.id, milestone: 'Won', track: 'Default' });
    // Demo is not a milestone of Default
    const res = await patch(ann, { id: created.id, milestone: 'Demo' });
    expectError(res, 400, 'validation_failed', ['milestone']);
    expect(res.body.error.fields[0].message).toMatch(/of the track Default/);
    expect((await patch(ann, { id: created.id, pipeline_id: sales.id, milestone: 'Demo' })).body).toMatchObject({ pipeline_id: sales.id, milestone: 'Demo' });
    expect(await stored(created.id)).toMatchObject({ pipeline_id: sales.id, milestone: 'Demo' });
  });

  it('changes the owner and the contacts; validates them', async () => {
    const al = await h.contact(ann, 'Al');
    const created = await h.createDeal(ann, sales);
    expect((await patch(ann, { id: created.id, owner_id: String(bea.id), contact_ids: [al.id] })).body).toMatchObject({ owner_id: String(bea.id), contact_ids: [String(al.id)] });
    expectError(await patch(ann, { id: created.id, owner_id: zed.id }), 400, 'validation_failed', ['owner_id']);
    expectError(await patch(ann, { id: created.id, contact_ids: [al.id, 424242] }), 400, 'validation_failed', ['contact_ids']);
    expect(await stored(created.id)).toMatchObject({ owner_id: bea.id, contact_ids: [al.id] });
  });

  it('400 without id or with bad values, 404 for an unknown or foreign deal; nothing changes', async () => {
    const created = await h.createDeal(ann, sales);
    const theirs = await h.createDeal(zed, await h.defaultTrack(zed));
    expectError(await patch(ann, { name: 'x' }), 400, 'validation_failed', ['id']);
    expectError(await patch(ann, { id: created.id, probability: 150 }), 400, 'validation_failed', ['probability']);
    expectError(await patch(ann, { id: created.id, expected_value: 2e12 }), 400, 'validation_failed', ['expected_value']);
    expectError(await patch(ann, { id: created.id, name: '' }), 400, 'validation_failed', ['name']);
    expectError(await patch(ann, { id: created.id, nope: 1 }), 400, 'validation_failed', ['nope']);
    expectError(await patch(ann, { id: theirs.id, name: 'Mine' }), 404, 'deal_not_found');
    expectError(await patch(ann, { id: 999_999, name: 'Mine' }), 404, 'deal_not_found');
    expect(await stored(created.id)).toMatchObject({ name: 'Big deal', probability: 0, expected_value: 5000 });
    expect(await stored(theirs.id)).toMatchObject({ name: 'Big deal' });
  });

  it('concurrent partial updates of different fields lose nothing', async () => {
    const contacts = [];
    for (let i = 0; i < 3; i++) contacts.push(await h.contact(ann, `C${i}`));
    const created = await h.createDeal(ann, sales);
    const bodies = [
      { name: 'New name' },
      { description: 'New description' },
      { expected_value: 777 },
      { probability: 90 },
      { close_date: 1_900_000_000 },
      { owner_id: bea.id },
      { milestone: 'Won' },
      { contact_ids: contacts.map((c) => c.id) },
      { custom_data: [{ name: 'k', value: 'v' }] },
    ];
    const responses = await Promise.all(bodies.map((body) => patch(ann, { id: created.id, ...body })));
    expect(new Set(responses.map((r) => r.status))).toEqual(new Set([200]));
    expect(await stored(created.id)).toMatchObject({
      name: 'New name',
      description: 'New description',
      expected_value: 777,
      probability: 90,
      close_date: 1_900_000_000,
      owner_id: bea.id,
      milestone: 'Won',
      pipeline_id: sales.id,
      contact_ids: contacts.map((c) => c.id),
      custom_data: [{ name: 'k', value: 'v' }],
    });
  });

  it('concurrent moves of track and milestone never leave a milestone outside its track', async () => {
    const other = await h.createTrack(ann, 'Other', 'Alpha,Beta');
    const created = await h.createDeal(ann, sales);
    const calls = [
      () => patch(ann, { id: created.id, pipeline_id: other.id, milestone: 'Alpha' }),
      () => patch(ann, { id: created.id, milestone: 'Demo' }),
      () => patch(ann, { id: created.id, milestone: 'Won' }),
      () => patch(ann, { id: created.id, milestone: 'Beta' }),
    ];
    await Promise.all(calls.map((call) => call()));
    const doc = await stored(created.id);
    const track = doc!.pipeline_id === sales.id ? ['Lead', 'Demo', 'Won'] : ['Alpha', 'Beta'];
    expect(track).toContain(doc!.milestone);
  });
});

describe('D5: create for a contact by email', () => {
  it('creates the deal related to that contact (and to the contact_ids sent)', async () => {
    const al = await h.contact(ann, 'Al', 'al@x.test');
    const bo = await h.contact(ann, 'Bo');
    const res = await ctx.as(ann).post(`${BASE}/email/al@x.test`).send(h.dealBody(ann, sales, { contact_ids: [bo.id] }));
    expect(res.status).toBe(200);
    expect(res.body.contact_ids).toEqual([String(bo.id), String(al.id)]);
    expect(res.body.contacts.map((c: { id: number }) => c.id)).toEqual([bo.id, al.id]);
    expect(await stored(res.body.id)).toMatchObject({ contact_ids: [bo.id, al.id] });
  });

  it('400 and nothing created when no contact of the account has the email (case-sensitive; another account’s contact included)', async () => {
    await h.contact(ann, 'Al', 'al@x.test');
    await h.contact(zed, 'Zoe', 'zoe@z.test');
    for (const email of ['AL@x.test', 'zoe@z.test', 'nobody@x.test']) {
      const res = await ctx.as(ann).post(`${BASE}/email/${email}`).send(h.dealBody(ann, sales));
      expectError(res, 400, 'bad_request', ['email']);
      expect(res.body.error.message).toBe(`No contact has the email ${email}`);
    }
    expectError(await ctx.as(ann).post(`${BASE}/email/not-an-email`).send(h.dealBody(ann, sales)), 400, 'validation_failed', ['email']);
    expect(await dealCount()).toBe(0);
  });

  it('the deal rules apply (400, nothing created); an id is refused', async () => {
    await h.contact(ann, 'Al', 'al@x.test');
    expectError(await ctx.as(ann).post(`${BASE}/email/al@x.test`).send(h.dealBody(ann, sales, { milestone: 'Lost' })), 400, 'validation_failed', ['milestone']);
    expectError(await ctx.as(ann).post(`${BASE}/email/al@x.test`).send(h.dealBody(ann, sales, { id: 5 })), 400, 'validation_failed', ['id']);
    expect(await dealCount()).toBe(0);
  });
});

describe('D2, D6, D7: read and delete', () => {
  it('D2 answers the deal; 204 for an unknown id or another account’s deal', async () => {
    const created = await h.createDeal(ann, sales);
    const res = await ctx.as(ann).get(`${BASE}/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
    const theirs = await h.createDeal(zed, await h.defaultTrack(zed));
    for (const id of [theirs.id, 999_999]) {
      const none = await ctx.as(ann).get(`${BASE}/${id}`);
      expect(none.status).toBe(204);
      expect(none.text).toBe('');
    }
    expectError(await ctx.as(ann).get(`${BASE}/abc`), 400, 'validation_failed', ['id']);
  });

  it('D6 deletes and answers the deleted id; an unknown or foreign id deletes nothing', async () => {
    const created = await h.createDeal(ann, sales);
    const theirs = await h.createDeal(zed, await h.defaultTrack(zed));
    expect((await ctx.as(ann).delete(`${BASE}/${theirs.id}`)).body).toEqual({ deleted: [] });
    const res = await ctx.as(ann).delete(`${BASE}/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: [created.id] });
    expect(await stored(created.id)).toBeNull();
    expect((await ctx.as(ann).delete(`${BASE}/${created.id}`)).body).toEqual({ deleted: [] });
    expect(await stored(theirs.id)).not.toBeNull();
    const xml = await ctx.as(ann).delete(`${BASE}/${created.id}`).set('Accept', 'application/xml');
    expect(xml.text).toMatch(/<result\/>$/);
  });

  it('D7 deletes every listed deal of the account, ignoring other ids (JSON and form)', async () => {
    const d = [];
    for (let i = 0; i < 4; i++) d.push(await h.createDeal(ann, sales, { name: `D${i}` }));
    const theirs = await h.createDeal(zed, await h.defaultTrack(zed));
    const res = await ctx.as(ann).post(`${BASE}/bulk`).send({ ids: [d[0].id, String(d[1].id), theirs.id, 999_999] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: [d[0].id, d[1].id] });
    const form = await ctx.as(ann).post(`${BASE}/bulk`).type('form').send({ ids: JSON.stringify([d[2].id]) });
    expect(form.body).toEqual({ deleted: [d[2].id] });
    expect((await h.Deal().find().sort({ _id: 1 }).lean()).map((x) => x._id)).toEqual([d[3].id, theirs.id]);
    expectError(await ctx.as(ann).post(`${BASE}/bulk`).send({ ids: [] }), 400, 'validation_failed', ['ids']);
    expectError(await ctx.as(ann).post(`${BASE}/bulk`).send({ ids: ['x'] }), 400, 'validation_failed', ['ids.0']);
    expectError(await ctx.as(ann).post(`${BASE}/bulk`).send({}), 400, 'validation_failed', ['ids']);
  });
});

describe('the notes of a deal (spec: "notes (list)" seen in deal responses)', () => {
  const dealNote = async (deal_ids: number[], subject = 'S') => {
    const res = await ctx.as(ann).post(`${BASE}/deals/notes`).send({ subject, description: 'D', deal_ids });
    expect(res.status).toBe(200);
    return res.body as { id: number };
  };

  it('every deal answer carries notes: the ids of its related notes as strings, oldest first ([] when none)', async () => {
    const a = await h.createDeal(ann, def, { name: 'A' });
    const b = await h.createDeal(ann, def, { name: 'B' });
    await h.createDeal(ann, def, { name: 'C' });
    const n1 = await dealNote([a.id, b.id]);
    const n2 = await dealNote([a.id]);
    const notes = (d: Deal) => [d.name, d.notes];
    expect(notes((await ctx.as(ann).get(`${BASE}/${a.id}`)).body)).toEqual(['A', [String(n1.id), String(n2.id)]]);
    expect((await ctx.as(ann).get(BASE)).body.map(notes)).toEqual([
      ['A', [String(n1.id), String(n2.id)]],
      ['B', [String(n1.id)]],
      ['C', []],
    ]);
    expect((await ctx.as(ann).get(`${BASE}/byMilestone`)).body.Open.map(notes)).toEqual([
      ['A', [String(n1.id), String(n2.id)]],
      ['B', [String(n1.id)]],
      ['C', []],
    ]);
    const xml = parseXml((await ctx.as(ann).get(`${BASE}/${b.id}`).set('Accept', 'application/xml')).text).end({ format: 'object' }) as unknown as { opportunity: Record<string, unknown> };
    expect(xml.opportunity.notes).toBe(String(n1.id));
  });

  it('notes are read-only on a deal: sent back to D4 they are ignored; a note unrelated from the deal leaves the list', async () => {
    const a = await h.createDeal(ann, def);
    const note = await dealNote([a.id]);
    const fetched = (await ctx.as(ann).get(`${BASE}/${a.id}`)).body;
    const put = await ctx.as(ann).put(BASE).send({ ...fetched, notes: ['999'] });
    expect(put.status).toBe(200);
    expect(put.body.notes).toEqual([String(note.id)]);
    expect(await stored(a.id)).not.toHaveProperty('notes');
    expect((await ctx.as(ann).put('/dev/api/notes').send({ id: note.id, deal_ids: [] })).status).toBe(200);
    expect((await ctx.as(ann).get(`${BASE}/${a.id}`)).body.notes).toEqual([]);
  });
});

describe('D1 and D10: lists and paging', () => {
  async function seed() {
    const made: Deal[] = [];
    for (let i = 0; i < 5; i++) made.push(await h.createDeal(ann, i % 2 ? def : sales, { name: `D${i}`, milestone: i % 2 ? 'Open' : 'Lead' }));
    await h.createDeal(zed, await h.defaultTrack(zed));
    return made;
  }

  async function allPages(path: string, pageSize: number) {
    const pages: Deal[][] = [];
    let cursor: string | undefined;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const res = await ctx.as(ann).get(`${path}${sep}page_size=${pageSize}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      pages.push(res.body);
      cursor = res.body[res.body.length - 1].cursor;
    } while (cursor && pages.length < 10);
    return pages;
  }

  it('D1 lists the account’s deals oldest first: count on the first, cursor on the last while more follow', async () => {
    const made = await seed();
    const res = await ctx.as(ann).get(BASE);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(ids(made));
    expect(res.body[0].count).toBe(5);
    expect(res.body[4].cursor).toBeUndefined();
    const { count: _count, ...first } = res.body[0];
    expect(first).toEqual(made[0]);
    const pages = await allPages(BASE, 2);
    expect(pages.map(ids)).toEqual([ids(made.slice(0, 2)), ids(made.slice(2, 4)), ids(made.slice(4))]);
    expect(pages.map((p) => p[0].count)).toEqual([5, 5, 5]);
    expect(pages[2][0].cursor).toBeUndefined();
  });

  it('D1 with no deals is 200 with an empty list', async () => {
    const res = await ctx.as(ann).get(BASE);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('D1 in XML: a <collection> with repeated <opportunity> elements, count and cursor', async () => {
    await seed();
    const res = await ctx.as(ann).get(`${BASE}?page_size=2`).set('Accept', 'application/xml');
    const xml = parseXml(res.text).end({ format: 'object' }) as unknown as { collection: { opportunity: Record<string, unknown>[] } };
    expect(xml.collection.opportunity).toHaveLength(2);
    expect(xml.collection.opportunity[0]).toMatchObject({ name: 'D0', count: '5' });
    expect(xml.collection.opportunity[1]).toMatchObject({ name: 'D1', cursor: expect.any(String) });
  });

  it('a bad page_size or a forged, foreign or other-list cursor is a 400', async () => {
    await seed();
    expectError(await ctx.as(ann).get(`${BASE}?page_size=0`), 400, 'validation_failed', ['page_size']);
    expectError(await ctx.as(ann).get(`${BASE}?page_size=201`), 400, 'validation_failed', ['page_size']);
    expectError(await ctx.as(ann).get(`${BASE}?cursor=abc`), 400, 'invalid_cursor', ['cursor']);
    const cursor = (await ctx.as(ann).get(`${BASE}?page_size=1`)).body[0].cursor;
    expectError(await ctx.as(zed).get(`${BASE}?cursor=${encodeURIComponent(cursor)}`), 400, 'invalid_cursor', ['cursor']);
    // D10 with pipeline_id 1 is the same list as D1 and takes its cursors; a track's list does not
    expect((await ctx.as(ann).get(`${BASE}/based?pipeline_id=1&page_size=1&cursor=${encodeURIComponent(cursor)}`)).body[0].name).toBe('D1');
    expectError(await ctx.as(ann).get(`${BASE}/based?pipeline_id=0&cursor=${encodeURIComponent(cursor)}`), 400, 'invalid_cursor', ['cursor']);
    const contactCursor = await h.contact(ann, 'A').then(() => h.contact(ann, 'B')).then(() => ctx.as(ann).get('/dev/api/contacts?page_size=1'));
    expectError(await ctx.as(ann).get(`${BASE}?cursor=${encodeURIComponent(contactCursor.body[0].cursor)}`), 400, 'invalid_cursor', ['cursor']);
  });

  it('D10: 0 is the Default track, 1 every track, another value that track; paged', async () => {
    const made = await seed();
    expect(ids((await ctx.as(ann).get(`${BASE}/based?pipeline_id=0`)).body)).toEqual([made[1].id, made[3].id]);
    expect(ids((await ctx.as(ann).get(`${BASE}/based?pipeline_id=${def.id}`)).body)).toEqual([made[1].id, made[3].id]);
    expect(ids((await ctx.as(ann).get(`${BASE}/based?pipeline_id=1`)).body)).toEqual(ids(made));
    const salesPages = await allPages(`${BASE}/based?pipeline_id=${sales.id}`, 2);
    expect(salesPages.map(ids)).toEqual([[made[0].id, made[2].id], [made[4].id]]);
    expect(salesPages[0][0].count).toBe(3);
  });

  it('D10: an unknown or foreign track, or a missing pipeline_id, is a 400', async () => {
    const theirs = await h.defaultTrack(zed);
    expectError(await ctx.as(ann).get(`${BASE}/based?pipeline_id=${theirs.id}`), 400, 'validation_failed', ['pipeline_id']);
    expectError(await ctx.as(ann).get(`${BASE}/based?pipeline_id=999999`), 400, 'validation_failed', ['pipeline_id']);
    expectError(await ctx.as(ann).get(`${BASE}/based`), 400, 'validation_failed', ['pipeline_id']);
    expectError(await ctx.as(ann).get(`${BASE}/based?pipeline_id=-1`), 400, 'validation_failed', ['pipeline_id']);
  });
});

describe('D8 and D9: deals by milestone', () => {
  it('D8: keyed by every milestone of the Default track, in track order, empty lists included', async () => {
    const a = await h.createDeal(ann, def, { milestone: 'Won' });
    const b = await h.createDeal(ann, def, { milestone: 'Open' });
    const c = await h.createDeal(ann, def, { milestone: 'Won' });
    await h.createDeal(ann, sales);
    await h.createDeal(zed, await h.defaultTrack(zed), { milestone: 'Won' });
    const res = await ctx.as(ann).get(`${BASE}/byMilestone`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['Open', 'New', 'Prospect', 'Proposal', 'Won', 'Lost']);
    expect(res.body).toEqual({ Open: [b], New: [], Prospect: [], Proposal: [], Won: [a, c], Lost: [] });
  });

  it('D9: pipeline_id 0 is the Default track; a track id that track; unknown ids 400', async () => {
    const a = await h.createDeal(ann, sales, { milestone: 'Demo' });
    const def0 = await ctx.as(ann).get(`${BASE}/byPipeline/based?pipeline_id=0`);
    expect(def0.body).toEqual({ Open: [], New: [], Prospect: [], Proposal: [], Won: [], Lost: [] });
    const res = await ctx.as(ann).get(`${BASE}/byPipeline/based?pipeline_id=${sales.id}`);
    expect(res.body).toEqual({ Lead: [], Demo: [a], Won: [] });
    expect(Object.keys(res.body)).toEqual(['Lead', 'Demo', 'Won']);
    expectError(await ctx.as(ann).get(`${BASE}/byPipeline/based?pipeline_id=1`), 400, 'validation_failed', ['pipeline_id']);
    expectError(await ctx.as(zed).get(`${BASE}/byPipeline/based?pipeline_id=${sales.id}`), 400, 'validation_failed', ['pipeline_id']);
    expectError(await ctx.as(ann).get(`${BASE}/byPipeline/based`), 400, 'validation_failed', ['pipeline_id']);
  });

  it('D9 in XML lists the milestones (names may hold spaces) with their deals', async () => {
    const spaced = await h.createTrack(ann, 'Spaced', 'Closed Won,Lost');
    await h.createDeal(ann, spaced, { milestone: 'Closed Won', name: 'X' });
    const res = await ctx.as(ann).get(`${BASE}/byPipeline/based?pipeline_id=${spaced.id}`).set('Accept', 'application/xml');
    expect(res.status).toBe(200);
    const xml = parseXml(res.text).end({ format: 'object' }) as unknown as { milestones: { milestone: Array<{ name: string; opportunity?: { name: string } }> } };
    expect(xml.milestones.milestone.map((m) => m.name)).toEqual(['Closed Won', 'Lost']);
    expect(xml.milestones.milestone[0].opportunity).toMatchObject({ name: 'X' });
    expect(xml.milestones.milestone[1].opportunity).toBeUndefined();
  });
});

describe('D11 and D12', () => {
  it('D11: deals related to the contact, oldest first; [] for none, unknown or foreign contacts', async () => {
    const al = await h.contact(ann, 'Al');
    const bo = await h.contact(ann, 'Bo');
    const a = await h.createDeal(ann, sales, { contact_ids: [al.id] });
    await h.createDeal(ann, sales, { contact_ids: [bo.id] });
    const c = await h.createDeal(ann, def, { contact_ids: [bo.id, al.id] });
    const res = await ctx.as(ann).get(`/dev/api/contacts/${al.id}/deals`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ ...a, count: 2 }, c]);
    const nobody = await h.contact(ann, 'Nobody');
    expect((await ctx.as(ann).get(`/dev/api/contacts/${nobody.id}/deals`)).body).toEqual([]);
    expect((await ctx.as(zed).get(`/dev/api/contacts/${al.id}/deals`)).body).toEqual([]);
    expect((await ctx.as(ann).get('/dev/api/contacts/999999/deals')).body).toEqual([]);
  });

  it('D12: deals owned by the caller', async () => {
    const mine = await h.createDeal(ann, sales);
    const hers = await h.createDeal(ann, sales, { owner_id: bea.id });
    expect(ids((await ctx.as(ann).get(`${BASE}/my/deals`)).body)).toEqual([mine.id]);
    expect(ids((await ctx.as(bea).get(`${BASE}/my/deals`)).body)).toEqual([hers.id]);
    expect((await ctx.as(zed).get(`${BASE}/my/deals`)).body).toEqual([]);
    const xml = await ctx.as(bea).get(`${BASE}/my/deals`).set('Accept', 'application/xml');
    expect(xml.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><collection><opportunity><id>\d+<\/id>/);
  });

  it('D11 and D12 are the whole list when it fits (page_size default and at most 200), paged like the other lists when asked', async () => {
    const al = await h.contact(ann, 'Al');
    const made = [];
    for (let i = 0; i < 12; i++) made.push(await h.createDeal(ann, sales, { contact_ids: [al.id] }));
    for (const path of [`/dev/api/contacts/${al.id}/deals`, `${BASE}/my/deals`]) {
      const whole = await ctx.as(ann).get(path);
      expect(whole.status).toBe(200);
      expect(ids(whole.body)).toEqual(made.map((d) => d.id));
      expect(whole.body[0].count).toBe(12);
      expect(whole.body[11]).not.toHaveProperty('cursor');
      const first = await ctx.as(ann).get(`${path}?page_size=10`);
      expect(first.body).toHaveLength(10);
      expect(first.body[0].count).toBe(12);
      const second = await ctx.as(ann).get(`${path}?page_size=10&cursor=${encodeURIComponent(first.body[9].cursor)}`);
      expect(ids([...first.body, ...second.body])).toEqual(made.map((d) => d.id));
      expect(second.body[1]).not.toHaveProperty('cursor');
      expect((await ctx.as(ann).get(`${path}?page_size=200`)).status).toBe(200);
      expect((await ctx.as(ann).get(`${path}?page_size=201`)).status).toBe(400);
    }
  });
});

describe('authentication and isolation', () => {
  it('401 on every deal route without valid credentials; nothing written', async () => {
    const created = await h.createDeal(ann, sales);
    const calls = [
      request(ctx.app).get(BASE),
      request(ctx.app).get(`${BASE}/${created.id}`),
      request(ctx.app).post(BASE).send(h.dealBody(ann, sales)),
      request(ctx.app).put(BASE).send(h.dealBody(ann, sales, { id: created.id })),
      request(ctx.app).put(`${BASE}/partial-update`).send({ id: created.id, name: 'x' }),
      request(ctx.app).post(`${BASE}/email/al@x.test`).send(h.dealBody(ann, sales)),
      request(ctx.app).delete(`${BASE}/${created.id}`),
      request(ctx.app).post(`${BASE}/bulk`).send({ ids: [created.id] }),
      request(ctx.app).get(`${BASE}/byMilestone`),
      request(ctx.app).get(`${BASE}/byPipeline/based?pipeline_id=0`),
      request(ctx.app).get(`${BASE}/based?pipeline_id=1`),
      request(ctx.app).get('/dev/api/contacts/1/deals'),
      request(ctx.app).get(`${BASE}/my/deals`).auth(ann.email, 'wrong'),
    ];
    for (const call of calls) expectError(await call, 401, 'unauthorized');
    expect(await h.Deal().find().lean()).toEqual([await stored(created.id)]);
    expect((await stored(created.id))!.name).toBe('Big deal');
  });

  it('another account sees none of the deals in any list or view', async () => {
    await h.createDeal(ann, sales);
    await h.createDeal(ann, def);
    for (const path of [BASE, `${BASE}/based?pipeline_id=1`, `${BASE}/based?pipeline_id=0`, `${BASE}/my/deals`]) {
      expect({ path, body: (await ctx.as(zed).get(path)).body }).toEqual({ path, body: [] });
    }
    expect(Object.values((await ctx.as(zed).get(`${BASE}/byMilestone`)).body).flat()).toEqual([]);
  });

  it('405 with Allow for a method a deal path does not take', async () => {
    const res = await request(ctx.app).patch(BASE).set('Authorization', ann.auth);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toContain('GET');
  });
});

describe('OpenAPI', () => {
  it('describes every deal and track route', async () => {
    const doc = (await request(ctx.app).get('/openapi.json')).body;
    const paths = Object.keys(doc.paths);
    for (const path of [
      '/dev/api/opportunity',
      '/dev/api/opportunity/{id}',
      '/dev/api/opportunity/email/{email}',
      '/dev/api/opportunity/bulk',
      '/dev/api/opportunity/partial-update',
      '/dev/api/opportunity/byMilestone',
      '/dev/api/opportunity/byPipeline/based',
      '/dev/api/opportunity/based',
      '/dev/api/opportunity/my/deals',
      '/dev/api/contacts/{id}/deals',
      '/dev/api/milestone/pipelines',
      '/dev/api/milestone/pipelines/{id}',
    ]) {
      expect(paths).toContain(path);
    }
    expect(Object.keys(doc.paths['/dev/api/opportunity']).sort()).toEqual(['get', 'post', 'put']);
  });
});
