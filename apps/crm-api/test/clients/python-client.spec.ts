import request from 'supertest';
import { expectError, expectRefused } from '../expectations';
import { person, setupCrmApp, type TestUser } from '../setup-app';
import { records } from './records';
import { pythonJson } from './wire';

/**
 * The official Python client (github agilecrm/python-api, AgileCRM.py): every call of its README that
 * the spec covers, replayed as `agileCRM(nextURL, method, data, contenttype)` puts it on the wire with
 * `requests`: headers `Accept: application/json` and `content-type: <contenttype>` on every method
 * (GET and DELETE too), HTTP Basic, POST/PUT bodies as `json.dumps(data)` (", " and ": " separators),
 * POSTFORM bodies as the string given, and the URL percent-encoded as requests does (space → %20).
 * The README's sample ids are replaced by ids of records made here; everything else is as written.
 */
const ctx = setupCrmApp();

let ann: TestUser;
beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'POSTFORM';

/** `agileCRM` of AgileCRM.py. */
function agileCRM(nextURL: string, method: Method, data: unknown, contenttype: string) {
  const agent = request(ctx.app);
  const url = `/dev/api/${nextURL}`;
  const req = { GET: agent.get(url), POST: agent.post(url), PUT: agent.put(url), DELETE: agent.delete(url), POSTFORM: agent.post(url) }[method]
    .set('Authorization', ann.auth)
    .set('Accept', 'application/json')
    .set('Content-Type', contenttype);
  if (method === 'POST' || method === 'PUT') return req.send(pythonJson(data));
  if (method === 'POSTFORM') return req.send(data as string);
  return req;
}

const shared = records(ctx, () => ann);
/** The Python README's deals are in its sample milestone and close date. */
const make = { ...shared, deal: (extra: object = {}) => shared.deal({ milestone: 'Proposal', close_date: 1455042600, ...extra }) };


const ids = (res: request.Response) => res.body.map((item: { id: number }) => item.id);

describe('1. Contact', () => {
  it('1.1 create a contact', async () => {
    const contactData = {
      star_value: '4',
      lead_score: '92',
      tags: ['Lead', 'Likely Buyer'],
      properties: [
        { type: 'SYSTEM', name: 'first_name', value: 'Los ' },
        { type: 'SYSTEM', name: 'last_name', value: 'Bruikheilmer' },
        { type: 'SYSTEM', name: 'company', value: 'steady.inc' },
        { type: 'SYSTEM', name: 'title', value: 'VP Sales' },
        { type: 'SYSTEM', name: 'email', subtype: 'work', value: 'akrambakram@yabba.com' },
        { type: 'SYSTEM', name: 'address', value: '{"address":"225 George Street","city":"NSW","state":"Sydney","zip":"2000","country":"Australia"}' },
        { type: 'CUSTOM', name: 'My Custom Field', value: 'Custom value' },
      ],
    };
    expect(pythonJson(contactData)).toMatch(/^\{"star_value": "4", "lead_score": "92", "tags": \["Lead", "Likely Buyer"\]/);
    const res = await agileCRM('contacts', 'POST', contactData, 'application/json');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'PERSON', star_value: 4, lead_score: 92, tags: ['Lead', 'Likely Buyer'], properties: contactData.properties });
  });

  it('1.2 fetch by id, by email, and by email_ids=[addr] (the bracketed form, unquoted)', async () => {
    const id = await make.contact(person('Poonam', 'poonam.baranwal@invenio-solutions.com'));
    expect((await agileCRM(`contacts/${id}`, 'GET', null, 'application/json')).body.id).toBe(id);
    const byEmail = await agileCRM('contacts/search/email/poonam.baranwal@invenio-solutions.com', 'GET', null, 'application/json');
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.id).toBe(id);
    const emailData = `email_ids=[${'poonam.baranwal@invenio-solutions.com'}]`;
    const searched = await agileCRM('contacts/search/email', 'POSTFORM', emailData, 'application/x-www-form-urlencoded');
    expect(searched.status).toBe(200);
    expect(ids(searched)).toEqual([id]);
  });

  it('the bracketed form stays strict: a malformed email in it is a 400 naming it, an ambiguous list is a 400', async () => {
    const bad = await agileCRM('contacts/search/email', 'POSTFORM', 'email_ids=[ok@x.test, not-an-email]', 'application/x-www-form-urlencoded');
    expectError(bad, 400, 'validation_failed', ['email_ids[1]']);
    const ambiguous = await agileCRM('contacts/search/email', 'POSTFORM', 'email_ids=[a@x.test,, b@x.test]', 'application/x-www-form-urlencoded');
    expectError(ambiguous, 400, 'validation_failed', ['email_ids']);
  });

  it('1.3 delete a contact (requests sends content-type and Content-Length: 0)', async () => {
    const id = await make.contact(person('Gone'));
    const res = await agileCRM(`contacts/${id}`, 'DELETE', null, 'application/json').set('Content-Length', '0');
    expect(res.status).toBe(204);
    expect(await ctx.Contact.countDocuments({ _id: id })).toBe(0);
  });

  it('1.4 update properties, 1.5 lead score, 1.6 star value, 1.7 add tags, 1.8 delete tags (all by id)', async () => {
    const id = await make.contact(person('Old', undefined, { properties: [{ type: 'SYSTEM', name: 'first_name', value: 'Old' }, { type: 'SYSTEM', name: 'last_name', value: 'Name' }] }));
    const updated = await agileCRM(
      'contacts/edit-properties',
      'PUT',
      { id: String(id), properties: [{ type: 'SYSTEM', name: 'last_name', value: 'Chan' }, { type: 'CUSTOM', name: 'My Custom Field', value: 'Custom value chane' }] },
      'application/json',
    );
    expect(updated.status).toBe(200);
    expect(updated.body.properties).toEqual([
      { type: 'SYSTEM', name: 'first_name', value: 'Old' },
      { type: 'SYSTEM', name: 'last_name', value: 'Chan' },
      { type: 'CUSTOM', name: 'My Custom Field', value: 'Custom value chane' },
    ]);
    expect((await agileCRM('contacts/edit/lead-score', 'PUT', { id: String(id), lead_score: 20 }, 'application/json')).body.lead_score).toBe(20);
    expect((await agileCRM('contacts/edit/add-star', 'PUT', { id: String(id), star_value: 2 }, 'application/json')).body.star_value).toBe(2);
    expect((await agileCRM('contacts/edit/tags', 'PUT', { id: String(id), tags: ['test1', 'test2'] }, 'application/json')).body.tags).toEqual(['test1', 'test2']);
    const removed = await agileCRM('contacts/delete/tags', 'PUT', { id: String(id), tags: ['test1', 'test2'] }, 'application/json');
    expect(removed.status).toBe(200);
    expect(removed.body.tags).toEqual([]);
  });

  it("1.9 search with q holding a space and type='PERSON' (quoted, as written)", async () => {
    const id = await make.contact(person('ghanshyam raut'));
    await make.contact(person('ghanshyam'));
    const res = await agileCRM("search?q=ghanshyam%20raut&page_size=10&type='PERSON'", 'GET', null, 'application/json');
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([id]);
    expectError(await agileCRM("search?q=x&type='person'", 'GET', null, 'application/json'), 400, 'validation_failed', ['type']);
  });
});

describe('2. Company', () => {
  const spicejet = (properties: object[]) => ({ type: 'COMPANY', properties });
  const typed = [
    { name: 'Company Type', type: 'CUSTOM', value: 'MNC Inc' },
    { type: 'SYSTEM', name: 'name', value: 'Spicejet' },
    { type: 'SYSTEM', name: 'url', value: 'http://www.spicejet.com/' },
  ];

  it('2.1 create: the README sample is a 400 (properties without type; star_value, lead_score and tags on a company) — the typed properties alone are created', async () => {
    const readme = {
      ...spicejet([
        ...typed,
        { name: 'email', value: 'care@spicejet.com  ', subtype: '' },
        { name: 'phone', value: '45500000', subtype: '' },
        { name: 'website', value: 'http://www.linkedin.com/company/agile-crm', subtype: 'LINKEDIN' },
      ]),
      star_value: 4,
      lead_score: 120,
      tags: ['Permanent', 'USA', 'Hongkong', 'Japan'],
    };
    const refused = await agileCRM('contacts', 'POST', readme, 'application/json');
    expectRefused(refused, 400, 'validation_failed');
    expect(refused.body.error.fields.map((f: { field: string }) => f.field)).toEqual(expect.arrayContaining(['properties.3.type', 'properties.4.type', 'properties.5.type']));
    const created = await agileCRM('contacts', 'POST', spicejet(typed), 'application/json');
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ type: 'COMPANY', properties: typed });
  });

  it('2.2 update (a property without type is a 400 naming it), 2.3 get, 2.4 delete', async () => {
    const id = (await agileCRM('contacts', 'POST', spicejet(typed), 'application/json')).body.id;
    const readme = { id, properties: [{ type: 'SYSTEM', name: 'name', value: 'SPICE JET' }, { type: 'SYSTEM', name: 'url', value: 'http://www.spicejet.com/' }, { name: 'phone', value: '45500000', subtype: '' }] };
    expectError(await agileCRM('contacts/edit-properties', 'PUT', readme, 'application/json'), 400, 'validation_failed', ['properties.2.type']);
    const updated = await agileCRM('contacts/edit-properties', 'PUT', { ...readme, properties: readme.properties.slice(0, 2) }, 'application/json');
    expect(updated.status).toBe(200);
    expect(updated.body.properties).toContainEqual({ type: 'SYSTEM', name: 'name', value: 'SPICE JET' });
    expect((await agileCRM(`contacts/${id}`, 'GET', null, 'application/json')).body).toMatchObject({ id, type: 'COMPANY' });
    expect((await agileCRM(`contacts/${id}`, 'DELETE', null, 'application/json')).status).toBe(204);
  });
});

describe('3. Deal', () => {
  it('3.1 create: the README body lacks pipeline_id and owner_id, which the spec requires (400 naming both)', async () => {
    const c = await make.contact(person('C'));
    const dealData = { name: 'Deal-Tomato', expected_value: '500', probability: '75', close_date: 1455042600, milestone: 'Proposal', contact_ids: [String(c)], custom_data: [{ name: 'Group Size', value: '10' }] };
    expectError(await agileCRM('opportunity', 'POST', dealData, 'application/json'), 400, 'validation_failed', ['pipeline_id', 'owner_id']);
  });

  it('3.2 partial update, 3.4 list (with the original service\'s cursor: 400; with ours: the next page), 3.5 get, 3.6 delete', async () => {
    const [c1, c2] = [await make.contact(person('C1')), await make.contact(person('C2'))];
    const id = await make.deal({ contact_ids: [c1] });
    const other = await make.deal();
    const updateData = { id: String(id), expected_value: '1000', probability: '20', milestone: 'Proposal', contact_ids: [String(c1), String(c2)], custom_data: [{ name: 'dealTester', value: 'hello hello2' }] };
    const patched = await agileCRM('opportunity/partial-update', 'PUT', updateData, 'application/json');
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id, expected_value: 1000, probability: 20, contact_ids: [String(c1), String(c2)], custom_data: updateData.custom_data });

    const foreign = await agileCRM('opportunity?page_size=10&cursor=Cj8SOWoRc35hZ2lsZS1jcm0tY2xvdWRyGAsSC09wcG9ydHVuaXR5GICAgMCV5oEJDKIBCWdoYW5zaHlhbRgAIAA', 'GET', null, 'application/json');
    expectError(foreign, 400, 'invalid_cursor', ['cursor']);
    const first = await agileCRM('opportunity?page_size=1', 'GET', null, 'application/json');
    expect(ids(first)).toEqual([id]);
    const second = await agileCRM(`opportunity?page_size=1&cursor=${encodeURIComponent(first.body[0].cursor)}`, 'GET', null, 'application/json');
    expect(ids(second)).toEqual([other]);

    expect((await agileCRM(`opportunity/${id}`, 'GET', null, 'application/json')).body).toMatchObject({ id, expected_value: 1000 });
    const deleted = await agileCRM(`opportunity/${id}`, 'DELETE', null, 'application/json');
    expect(deleted.status).toBe(200);
    expect(await ctx.connection.collection<{ _id: number }>('deals').countDocuments({ _id: id })).toBe(0);
  });
});

describe('4. Note', () => {
  it('4.1 create for contacts, 4.3 notes of a contact, 4.4 unrelate a note from a contact', async () => {
    const [a, b] = [await make.contact(person('A')), await make.contact(person('B'))];
    const created = await agileCRM('notes', 'POST', { subject: ' Note subject', description: 'Note description', contact_ids: [String(a), String(b)] }, 'application/json');
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ subject: ' Note subject', contacts: [String(a), String(b)] });
    const listed = await agileCRM(`contacts/${a}/notes`, 'GET', null, 'application/json');
    expect(ids(listed)).toEqual([created.body.id]);
    expect((await agileCRM(`contacts/${a}/notes/${created.body.id}`, 'DELETE', null, 'application/json')).status).toBe(204);
    expect((await agileCRM(`contacts/${a}/notes`, 'GET', null, 'application/json')).body).toEqual([]);
  });

  it('4.5 create a note on a deal, 4.6 update it (PUT), 4.7 notes of a deal', async () => {
    const [d1, d2] = [await make.deal(), await make.deal()];
    const description = 'This deal came directly from customer. No advertisement and hence very important for us.';
    const created = await agileCRM('opportunity/deals/notes', 'POST', { subject: 'Deal From Albany', description, deal_ids: [String(d1)] }, 'application/json');
    expect(created.status).toBe(200);
    const updated = await agileCRM('opportunity/deals/notes', 'PUT', { id: String(created.body.id), subject: 'Deal From Albany edit', description, deal_ids: [String(d2)] }, 'application/json');
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: created.body.id, subject: 'Deal From Albany edit', deal_ids: [String(d2)] });
    const ofDeal = await agileCRM(`opportunity/${d2}/notes`, 'GET', null, 'application/json');
    expect(ofDeal.status).toBe(200);
    expect(ids(ofDeal)).toEqual([created.body.id]);
  });
});
