import { escapeRegex } from '@lib/mongo';
import type { Test } from 'supertest';
import { company, person, setupCrmApp, type TestUser } from './setup-app';

const ctx = setupCrmApp();

type Contact = { id: number; count?: number; cursor?: string } & Record<string, unknown>;

async function create(user: TestUser, body: object): Promise<Contact> {
  const res = await ctx.as(user).post('/dev/api/contacts').send(body);
  expect(res.status).toBe(200);
  return res.body;
}

const MISSING_ID = 999_999;
const MISSING_EMAIL = 'missing@nowhere.test';

/** A response with the probed id or email in its text replaced by a placeholder, for comparing. */
function normalize(res: { status: number; body: unknown; text: string; headers: Record<string, string> }, probe: string | number) {
  const escaped = escapeRegex(String(probe));
  const swap = (value: unknown): unknown => {
    if (typeof value === 'string') return value.replace(new RegExp(`(?<![\\w.@-])${escaped}(?![\\w@-]|\\.\\w)`, 'g'), '<probe>');
    if (Array.isArray(value)) return value.map(swap);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, swap(v)]));
    return value;
  };
  return { status: res.status, type: res.headers['content-type'] ?? null, text: res.text === '' ? '' : 'non-empty', body: swap(res.body) };
}

/** What account A holds, to prove nothing B does reaches it. */
async function storedOf(account: number) {
  const [contacts, claims, acc] = await Promise.all([
    ctx.Contact.find({ account }).sort({ _id: 1 }).lean(),
    ctx.EmailClaim.find({ _id: { $regex: `^${account}:` } })
      .sort({ _id: 1 })
      .select({ _id: 1, contact: 1 })
      .lean(),
    ctx.Account.findById(account).lean(),
  ]);
  const workflows = await ctx.connection.collection('workflows').find({ account }).sort({ _id: 1 }).toArray();
  const enrolments = await ctx.connection.collection('campaign_enrolments').find({ account }).sort({ _id: 1 }).toArray();
  return { contacts, claims, acc, workflows, enrolments };
}

const ids = (items: { id: number }[]) => items.map((x) => x.id);

let ann: TestUser, ozzy: TestUser;
let acmeCo: Contact, al: Contact, bo: Contact, otherCo: Contact, oz: Contact;
let annFlow: number, ozFlow: number;

beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
  ozzy = await ctx.user('other', 'ozzy@other.test');
  acmeCo = await create(ann, {
    type: 'COMPANY',
    properties: [
      { type: 'SYSTEM', name: 'name', value: 'Alpha Co' },
      { type: 'SYSTEM', name: 'email', subtype: 'work', value: 'info@alpha.test' },
    ],
  });
  al = await create(ann, person('Al', 'al@alpha.test', { tags: ['a1'], lead_score: 5, star_value: 2, contact_company_id: acmeCo.id }));
  bo = await create(ann, person('Alma', 'alma@alpha.test'));
  otherCo = await create(ozzy, company('Omega Co'));
  oz = await create(ozzy, person('Oz', 'oz@omega.test', { contact_company_id: otherCo.id }));
  const slow = { steps: [{ type: 'WAIT', duration: 1, unit: 'DAYS' }, { type: 'ADD_TAG', tag: 'Lead' }] };
  annFlow = (await ctx.as(ann).post('/dev/api/workflows').send({ name: 'Alpha nurture', ...slow })).body.id;
  ozFlow = (await ctx.as(ozzy).post('/dev/api/workflows').send({ name: 'Omega nurture', ...slow })).body.id;
  expect((await ctx.as(ann).post('/dev/api/campaigns/enroll/email').type('form').send({ email: 'al@alpha.test', 'workflow-id': String(annFlow) })).status).toBe(200);
});

interface Probe {
  name: string;
  /** Account A's id or email, and a value that names nothing anywhere. */
  foreign: string | number;
  missing: string | number;
  call: (value: string | number) => Test;
  status: number;
}

function probes(): Probe[] {
  const as = ctx.as(ozzy);
  const form = (path: string, fields: Record<string, string>) => as.post(path).type('form').send(fields);
  const byId = (name: string, status: number, call: (id: number) => Test): Probe => ({ name, foreign: al.id, missing: MISSING_ID, status, call: (v) => call(Number(v)) });
  const byEmail = (name: string, status: number, call: (email: string) => Test, foreign = 'al@alpha.test'): Probe => ({
    name,
    foreign,
    missing: MISSING_EMAIL,
    status,
    call: (v) => call(String(v)),
  });
  return [
    byId('C2 GET /contacts/{id}', 204, (id) => as.get(`/dev/api/contacts/${id}`)),
    byId('C2 GET /contacts/{id} (XML)', 204, (id) => as.get(`/dev/api/contacts/${id}`).set('Accept', 'application/xml')),
    byId('C4 PUT /contacts', 404, (id) => as.put('/dev/api/contacts').send({ id, star_value: 1, properties: person('Hijack').properties })),
    byId('C5 DELETE /contacts/{id}', 204, (id) => as.delete(`/dev/api/contacts/${id}`)),
    byId('C12 change-owner (contact id)', 404, (id) => form('/dev/api/contacts/change-owner', { owner_email: ozzy.email, contact_id: String(id) })),
    byId('PUT edit-properties', 404, (id) => as.put('/dev/api/contacts/edit-properties').send({ id, properties: [{ type: 'CUSTOM', name: 'x', value: 'y' }] })),
    byId('PUT edit/tags', 404, (id) => as.put('/dev/api/contacts/edit/tags').send({ id, tags: ['hijack'] })),
    byId('PUT delete/tags', 404, (id) => as.put('/dev/api/contacts/delete/tags').send({ id, tags: ['a1'] })),
    byId('PUT edit/lead-score', 404, (id) => as.put('/dev/api/contacts/edit/lead-score').send({ id, lead_score: 99 })),
    byId('PUT edit/add-star', 404, (id) => as.put('/dev/api/contacts/edit/add-star').send({ id, star_value: 5 })),
    { ...byId('GET related/{companyId}', 204, (id) => as.get(`/dev/api/contacts/related/${id}`)), foreign: acmeCo.id },
    { ...byId('C3 POST /contacts with contact_company_id', 400, (id) => as.post('/dev/api/contacts').send(person('New', undefined, { contact_company_id: id }))), foreign: acmeCo.id },
    { ...byId('C4 PUT own contact with contact_company_id', 400, (id) => as.put('/dev/api/contacts').send({ id: oz.id, contact_company_id: id })), foreign: acmeCo.id },
    byEmail('C7 tags/add', 400, (email) => form('/dev/api/contacts/email/tags/add', { email, tags: '["hijack"]' })),
    byEmail('C8 tags/delete', 400, (email) => form('/dev/api/contacts/email/tags/delete', { email, tags: '["a1"]' })),
    byEmail('C9 add-score', 400, (email) => form('/dev/api/contacts/add-score', { email, score: '10' })),
    byEmail('C9 add-score (lowering)', 400, (email) => form('/dev/api/contacts/add-score', { email, score: '-1' })),
    byEmail('C11 add/property', 400, (email) => as.post(`/dev/api/contacts/add/property?email=${encodeURIComponent(email)}`).send({ type: 'CUSTOM', name: 'x', value: 'y' })),
    byEmail('GET search/email/{email}', 204, (email) => as.get(`/dev/api/contacts/search/email/${email}`)),
    byEmail('GET search/email/{email} (company email)', 204, (email) => as.get(`/dev/api/contacts/search/email/${email}`), 'info@alpha.test'),
    byEmail('C6 search/email', 200, (email) => form('/dev/api/contacts/search/email', { email_ids: JSON.stringify([email]) })),
    byEmail('C12 change-owner (owner of another account)', 400, (email) => form('/dev/api/contacts/change-owner', { owner_email: email, contact_id: String(oz.id) }), 'ann@acme.test'),
    byEmail('POST campaigns/enroll/email', 400, (email) => form('/dev/api/campaigns/enroll/email', { email, 'workflow-id': String(ozFlow) })),
    byEmail('POST campaigns/unsubscribe', 400, (email) => form('/dev/api/campaigns/unsubscribe', { email })),
    byEmail('POST campaigns/unsubscribe (one workflow)', 400, (email) => form('/dev/api/campaigns/unsubscribe', { email, 'workflow-id': String(ozFlow) })),
    byId('DELETE workflows/remove-active-subscriber (contact id)', 404, (id) => as.delete(`/dev/api/workflows/remove-active-subscriber/${ozFlow}/${id}`)),
    { ...byId('DELETE workflows/remove-active-subscriber (workflow id)', 404, (id) => as.delete(`/dev/api/workflows/remove-active-subscriber/${id}/${oz.id}`)), foreign: annFlow },
    { ...byId('GET workflows/{id}', 404, (id) => as.get(`/dev/api/workflows/${id}`)), foreign: annFlow },
    { ...byId('GET workflows/{id}/subscribers', 404, (id) => as.get(`/dev/api/workflows/${id}/subscribers`)), foreign: annFlow },
    { ...byId('PUT workflows', 404, (id) => as.put('/dev/api/workflows').send({ id, name: 'Hijack', steps: [{ type: 'ADD_TAG', tag: 'x' }] })), foreign: annFlow },
    { ...byId('DELETE workflows/{id}', 404, (id) => as.delete(`/dev/api/workflows/${id}`)), foreign: annFlow },
    { ...byId('POST campaigns/enroll/email (workflow-id)', 400, (id) => form('/dev/api/campaigns/enroll/email', { email: 'oz@omega.test', 'workflow-id': String(id) })), foreign: annFlow },
    { ...byId('POST campaigns/unsubscribe (workflow-id)', 400, (id) => form('/dev/api/campaigns/unsubscribe', { email: 'oz@omega.test', 'workflow-id': String(id) })), foreign: annFlow },
    { ...byEmail('GET /search?q=', 204, (q) => as.get(`/dev/api/search?q=${encodeURIComponent(q)}`), 'Al'), missing: 'Zzz' },
    { ...byEmail('GET /search?q= (email prefix)', 204, (q) => as.get(`/dev/api/search?q=${encodeURIComponent(q)}&type=PERSON`), 'al@'), missing: 'zz@' },
    { ...byEmail('GET /search?q= (company)', 204, (q) => as.get(`/dev/api/search?q=${encodeURIComponent(q)}&type=COMPANY`), 'Alpha'), missing: 'Zzz' },
  ];
}

describe('cross-account isolation', () => {
  it("account B acting on A's ids and emails gets exactly what a missing id or email gets; A is unchanged", async () => {
    const before = await storedOf(ann.account);
    const list = probes();
    expect(list.length).toBeGreaterThanOrEqual(25);
    for (const probe of list) {
      const foreign = await probe.call(probe.foreign);
      const missing = await probe.call(probe.missing);
      expect({ probe: probe.name, status: foreign.status }).toEqual({ probe: probe.name, status: probe.status });
      expect({ probe: probe.name, ...normalize(foreign, probe.foreign) }).toEqual({ probe: probe.name, ...normalize(missing, probe.missing) });
      if (probe.status >= 400) expect(foreign.body.error).toMatchObject({ status: probe.status, code: expect.any(String), message: expect.any(String) });
      if (probe.status === 200) expect(foreign.body).toEqual({});
    }
    expect(await storedOf(ann.account)).toEqual(before);
    // and A still sees its contacts as before
    const own = await ctx.as(ann).get(`/dev/api/contacts/${al.id}`);
    expect(own.body).toMatchObject({ id: al.id, tags: ['a1'], lead_score: 5, star_value: 2, domainUser: { email: 'ann@acme.test' } });
  });

  it('C6 with emails of both accounts returns only the caller’s contacts', async () => {
    const res = await ctx
      .as(ozzy)
      .post('/dev/api/contacts/search/email')
      .type('form')
      .send({ email_ids: JSON.stringify(['al@alpha.test', 'oz@omega.test', 'info@alpha.test']) });
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([oz.id]);
  });

  it('lists, counts, companies and search never include the other account', async () => {
    const list = await ctx.as(ozzy).get('/dev/api/contacts');
    expect(ids(list.body)).toEqual([otherCo.id, oz.id]);
    expect(list.body[0].count).toBe(2);
    const listA = await ctx.as(ann).get('/dev/api/contacts');
    expect(ids(listA.body)).toEqual([acmeCo.id, al.id, bo.id]);
    expect(listA.body[0].count).toBe(3);

    const xml = await ctx.as(ozzy).get('/dev/api/contacts').set('Accept', 'application/xml');
    expect(xml.text.match(/<contact>/g)).toHaveLength(2);
    expect(xml.text).not.toContain('alpha.test');

    expect((await ctx.as(ozzy).get('/dev/api/contacts/list/count')).body).toEqual({ count: 2 });
    expect((await ctx.as(ann).get('/dev/api/contacts/list/count')).body).toEqual({ count: 3 });

    expect(ids((await ctx.as(ozzy).post('/dev/api/contacts/companies/list').type('form').send({})).body)).toEqual([otherCo.id]);
    expect(ids((await ctx.as(ann).post('/dev/api/contacts/companies/list').send({})).body)).toEqual([acmeCo.id]);

    expect(ids((await ctx.as(ozzy).get('/dev/api/search?q=O')).body)).toEqual([otherCo.id, oz.id]);
    expect(ids((await ctx.as(ann).get('/dev/api/search?q=Al')).body)).toEqual([acmeCo.id, al.id, bo.id]);
    expect((await ctx.as(ann).get('/dev/api/search?q=O')).status).toBe(204);

    expect(ids((await ctx.as(ozzy).get(`/dev/api/contacts/related/${otherCo.id}`)).body)).toEqual([oz.id]);
    expect(ids((await ctx.as(ann).get(`/dev/api/contacts/related/${acmeCo.id}`)).body)).toEqual([al.id]);
  });

  it("a cursor of A's list is refused for B exactly like a forged one", async () => {
    const pageA = await ctx.as(ann).get('/dev/api/contacts?page_size=1');
    const cursorA = pageA.body[0].cursor as string;
    expect(typeof cursorA).toBe('string');
    const foreign = await ctx.as(ozzy).get(`/dev/api/contacts?page_size=1&cursor=${encodeURIComponent(cursorA)}`);
    const forged = await ctx.as(ozzy).get(`/dev/api/contacts?page_size=1&cursor=${encodeURIComponent(`${cursorA.split('.')[0]}.AAAAAAAAAAAAAAAAAAAAAA`)}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual(forged.body);
    const companiesA = await ctx.as(ann).post('/dev/api/contacts/companies/list').send({ page_size: 1 });
    expect(companiesA.body[0].cursor).toBeUndefined();
    const searchA = await ctx.as(ann).get('/dev/api/search?q=Al&page_size=1');
    const searchForeign = await ctx.as(ozzy).get(`/dev/api/search?q=Al&page_size=1&cursor=${encodeURIComponent(searchA.body[0].cursor)}`);
    expect(searchForeign.status).toBe(400);
    expect(searchForeign.body).toEqual(forged.body);
  });

  it("emails are unique per account only: B may hold a person with A's email, and neither sees the other", async () => {
    const twin = await create(ozzy, person('Twin', 'al@alpha.test'));
    expect((await ctx.as(ozzy).get('/dev/api/contacts/search/email/al@alpha.test')).body.id).toBe(twin.id);
    expect((await ctx.as(ann).get('/dev/api/contacts/search/email/al@alpha.test')).body.id).toBe(al.id);
    // tag and score calls by email reach only the caller's contact
    expect((await ctx.as(ozzy).post('/dev/api/contacts/email/tags/add').type('form').send({ email: 'al@alpha.test', tags: '["b_only"]' })).status).toBe(204);
    expect((await ctx.as(ozzy).post('/dev/api/contacts/add-score').type('form').send({ email: 'al@alpha.test', score: '7' })).body.lead_score).toBe(7);
    const alStored = await ctx.Contact.findById(al.id).lean();
    expect(Object.keys(alStored!.tag_times)).toEqual(['a1']);
    expect(alStored!.lead_score).toBe(5);
    // deleting B's twin leaves A's claim on the email
    expect((await ctx.as(ozzy).delete(`/dev/api/contacts/${twin.id}`)).status).toBe(204);
    expect(await ctx.EmailClaim.findById(`${ann.account}:al@alpha.test`).lean()).toMatchObject({ contact: al.id });
    const dup = await ctx.as(ann).post('/dev/api/contacts').send(person('Dup', 'al@alpha.test'));
    expect(dup.status).toBe(400);
    expect(dup.body.error.code).toBe('duplicate_email');
  });

  it('B cannot make its contact owned by a user of A, and A is told the same as for an unknown user', async () => {
    const foreign = await ctx.as(ozzy).post('/dev/api/contacts/change-owner').type('form').send({ owner_email: ann.email, contact_id: String(oz.id) });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.message).toBe(`owner_email: User with email ${ann.email} does not exist`);
    expect((await ctx.Contact.findById(oz.id).lean())!.owner).toBe(ozzy.id);
  });
});
