import request from 'supertest';
import { expectError } from '../expectations';
import { company, person, setupCrmApp, type TestUser } from '../setup-app';
import { records } from './records';
import { phpForm, phpJson } from './wire';

/**
 * The official PHP client (github agilecrm/php-api): every call of its README and Tester/*.php that
 * the spec covers, replayed as `curl_wrap($entity, $data, $method, $content_type)` puts it on the
 * wire: `Content-Type:<type>;` (with the trailing semicolon; `application/json` when NULL) on every
 * method, `Accept:application/json`, HTTP Basic, `$data` as given (json_encode output or a form string).
 * The README's sample ids are replaced by ids of records made here; everything else is as written.
 */
const ctx = setupCrmApp();

let ann: TestUser;
let bob: TestUser;
beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
  bob = await ctx.user('acme', 'bob@acme.test');
});

/** `curl_wrap` of CurlLib/curlwrap_v2.php. */
function curlWrap(entity: string, data: string | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', contentType: string | null) {
  const agent = request(ctx.app);
  const path = `/dev/api/${entity}`;
  const req = { GET: agent.get(path), POST: agent.post(path), PUT: agent.put(path), DELETE: agent.delete(path) }[method]
    .set('Authorization', ann.auth)
    .set('Content-Type', `${contentType ?? 'application/json'};`)
    .set('Accept', 'application/json');
  return (method === 'POST' || method === 'PUT') && data !== null ? req.send(data) : req;
}

const make = records(ctx, () => ann);


const property = (name: string, value: string, type = 'SYSTEM') => ({ name, value, type });

describe('1. Contact', () => {
  it('1.1 create a contact (json_encode body: strings for numbers, escaped / and non-ASCII)', async () => {
    const address = { address: 'Avenida Álvares Cabral 1777', city: 'Belo Horizonte', state: 'Minas Gerais', country: 'Brazil' };
    const body = phpJson({
      lead_score: '80',
      star_value: '5',
      tags: ['Player', 'Winner'],
      properties: [
        property('first_name', 'Ronaldo'),
        property('last_name', 'de Lima'),
        property('email', 'ronaldo100@gmail.com'),
        property('title', 'footballer'),
        property('address', phpJson(address)),
        property('phone', '+1-541-754-3030'),
        property('TeamNumbers', '5', 'CUSTOM'),
        property('Date Of Joining', '1438951923', 'CUSTOM'),
      ],
    });
    expect(body).toContain('\\u00c1lvares');
    const res = await curlWrap('contacts', body, 'POST', 'application/json');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'PERSON', lead_score: 80, star_value: 5, tags: ['Player', 'Winner'] });
    expect(res.body.properties).toContainEqual(property('TeamNumbers', '5', 'CUSTOM'));
    const storedAddress = res.body.properties.find((p: { name: string }) => p.name === 'address').value;
    expect(JSON.parse(storedAddress)).toEqual(address);
  });

  it('1.2 fetch by id and by email (also with $content_type NULL, as index.php and the Tester do)', async () => {
    const id = await make.contact(person('Test', 'test@email.com'));
    const byId = await curlWrap(`contacts/${id}`, null, 'GET', 'application/json');
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({ id, properties: expect.arrayContaining([expect.objectContaining({ name: 'email', value: 'test@email.com' })]) });
    for (const type of ['application/json', null]) {
      const byEmail = await curlWrap('contacts/search/email/test@email.com', null, 'GET', type);
      expect(byEmail.status).toBe(200);
      expect(byEmail.body.id).toBe(id);
    }
    expect((await curlWrap(`contacts/${id}`, null, 'GET', null)).body.id).toBe(id);
  });

  it('1.3 delete a contact', async () => {
    const id = await make.contact(person('Gone'));
    const res = await curlWrap(`contacts/${id}`, null, 'DELETE', 'application/json');
    expect(res.status).toBe(204);
    expect(await ctx.Contact.countDocuments({ _id: id })).toBe(0);
  });

  it('Tester: full update (PUT contacts) works; the sample email with trailing spaces is a 400 naming it', async () => {
    const id = await make.contact(person('Old', 'old@x.test'));
    const update = (email: string) =>
      phpJson({ id: String(id), lead_score: '80', properties: [property('first_name', 'php'), property('last_name', 'contact'), property('email', email)] });
    expectError(await curlWrap('contacts', update('tester@agilecrm.com  '), 'PUT', 'application/json'), 400, 'validation_failed', ['properties.2.value']);
    const res = await curlWrap('contacts', update('tester@agilecrm.com'), 'PUT', 'application/json');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, lead_score: 80, properties: [property('first_name', 'php'), property('last_name', 'contact'), property('email', 'tester@agilecrm.com')] });
  });

  it('1.4 partial update of properties (Tester sample: 200; README sample with a property of type "70": 400 naming it)', async () => {
    const id = await make.contact(person('Old', 'old@x.test'));
    const tester = phpJson({ id: String(id), properties: [property('first_name', 'php'), property('Total experience in field', '10', 'CUSTOM')] });
    const res = await curlWrap('contacts/edit-properties', tester, 'PUT', 'application/json');
    expect(res.status).toBe(200);
    expect(res.body.properties).toEqual(expect.arrayContaining([property('first_name', 'php'), property('Total experience in field', '10', 'CUSTOM'), expect.objectContaining({ name: 'email' })]));
    const readme = phpJson({
      id: String(id),
      properties: [property('first_name', 'php'), property('last_name', 'contact'), property('email', 'tester@agilecrm.com'), { name: 'CUSTOM', value: 'testNumber', type: '70' }],
    });
    expectError(await curlWrap('contacts/edit-properties', readme, 'PUT', 'application/json'), 400, 'validation_failed', ['properties.3.type']);
  });

  it('1.5 star value, 1.6 lead score (id as string and as number), 1.7 tags by id', async () => {
    const id = await make.contact(person('A'));
    const star = await curlWrap('contacts/edit/add-star', phpJson({ id: String(id), star_value: '5' }), 'PUT', 'application/json');
    expect(star.status).toBe(200);
    expect(star.body.star_value).toBe(5);
    for (const sentId of [String(id), id]) {
      const score = await curlWrap('contacts/edit/lead-score', phpJson({ id: sentId, lead_score: '5' }), 'PUT', 'application/json');
      expect(score.status).toBe(200);
      expect(score.body.lead_score).toBe(5);
    }
    const tags = await curlWrap('contacts/edit/tags', phpJson({ id: String(id), tags: ['Player', 'Winner'] }), 'PUT', 'application/json');
    expect(tags.status).toBe(200);
    expect(tags.body.tags).toEqual(['Player', 'Winner']);
  });

  it('1.8 / 1.9 add and delete tags by email (urlencoded form)', async () => {
    const id = await make.contact(person('Haka', 'haka@gmail.com'));
    const form = phpForm({ email: 'haka@gmail.com', tags: '["testing"]' });
    expect(form).toBe('email=haka%40gmail.com&tags=%5B%22testing%22%5D');
    const added = await curlWrap('contacts/email/tags/add', form, 'POST', 'application/x-www-form-urlencoded');
    expect(added.status).toBe(204);
    expect((await ctx.as(ann).get(`/dev/api/contacts/${id}`)).body.tags).toEqual(['testing']);
    const deleted = await curlWrap('contacts/email/tags/delete', form, 'POST', 'application/x-www-form-urlencoded');
    expect(deleted.status).toBe(204);
    expect((await ctx.as(ann).get(`/dev/api/contacts/${id}`)).body.tags).toEqual([]);
  });
});

describe('2. Company', () => {
  const companyJson = (url: string) => ({ type: 'COMPANY', properties: [property('name', 'test company'), property('url', url)] });

  it('2.1 create, 2.2 get, 2.4 update properties, 2.3 delete', async () => {
    const created = await curlWrap('contacts', phpJson(companyJson('https://www.testcompany.org')), 'POST', 'application/json');
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ type: 'COMPANY', properties: [property('name', 'test company'), property('url', 'https://www.testcompany.org')] });
    const id = created.body.id;
    expect((await curlWrap(`contacts/${id}`, null, 'GET', 'application/json')).body.id).toBe(id);
    const updated = await curlWrap('contacts/edit-properties', phpJson({ id: String(id), ...companyJson('https://www.test-company.org'), type: undefined }), 'PUT', 'application/json');
    expect(updated.status).toBe(200);
    expect(updated.body.properties).toContainEqual(property('url', 'https://www.test-company.org'));
    expect((await curlWrap(`contacts/${id}`, null, 'DELETE', 'application/json')).status).toBe(204);
    expect(await ctx.Contact.countDocuments({ _id: id })).toBe(0);
  });

  it('2.5 star value of a company is a 400 (the spec: star_value is not applicable to companies); 0 is accepted', async () => {
    const id = await make.contact(company('Acme'));
    expectError(await curlWrap('contacts/edit/add-star', phpJson({ id, star_value: '5' }), 'PUT', 'application/json'), 400, 'bad_request');
    expect((await curlWrap('contacts/edit/add-star', phpJson({ id, star_value: '0' }), 'PUT', 'application/json')).status).toBe(200);
  });

  it('2.6 list companies with page_size, global_sort_key=-created_time and cursor (form call)', async () => {
    const ids: number[] = [];
    for (const name of ['C1', 'C2', 'C3']) ids.push(await make.contact(company(name)));
    await make.contact(person('Not a company'));
    await Promise.all(ids.map((id, i) => ctx.Contact.updateOne({ _id: id }, { $set: { created_time: 1000 + i } })));
    const first = await curlWrap('contacts/companies/list', phpForm({ page_size: '2', global_sort_key: '-created_time' }), 'POST', 'application/x-www-form-urlencoded');
    expect(first.status).toBe(200);
    expect(first.body.map((c: { id: number }) => c.id)).toEqual([ids[2], ids[1]]);
    expect(first.body[0].count).toBe(3);
    const next = phpForm({ page_size: '2', global_sort_key: '-created_time', cursor: first.body[1].cursor });
    const second = await curlWrap('contacts/companies/list', next, 'POST', 'application/x-www-form-urlencoded');
    expect(second.body.map((c: { id: number }) => c.id)).toEqual([ids[0]]);
    // the README's literal cursor was issued by the original service: not one of ours
    const foreign = phpForm({ page_size: '25', global_sort_key: '-created_time', cursor: 'ClMKFgoMY3JlYXRlZF90aW1lEgYI-rbWrgUSNWoRc35hZ2lsZS1jcm0tY2xvdWRyFAsSB0NvbnRhY3QYgICAkNv0nQoMogEJZ2hhbnNoeWFtGAAgAQ' });
    expectError(await curlWrap('contacts/companies/list', foreign, 'POST', 'application/x-www-form-urlencoded'), 400, 'invalid_cursor', ['cursor']);
  });

  it("2.7 search with type='COMPANY' (quoted, as written), 2.8 persons of a company", async () => {
    const google = await make.contact(company('Google'));
    await make.contact(person('Google fan'));
    const found = await curlWrap("search?q=Google&page_size=10&type='COMPANY'", null, 'GET', 'application/json');
    expect(found.status).toBe(200);
    expect(found.body.map((c: { id: number }) => c.id)).toEqual([google]);
    const staff = await make.contact(person('Sam', undefined, { contact_company_id: google }));
    const related = await curlWrap(`contacts/related/${google}?page_size=25`, null, 'GET', 'application/json');
    expect(related.status).toBe(200);
    expect(related.body.map((c: { id: number }) => c.id)).toEqual([staff]);
  });
});

describe('3. Deal', () => {
  const dealJson = (contactIds: string[]) => ({
    name: 'test deal',
    description: 'this is a test deal',
    expected_value: 1000,
    milestone: 'Open',
    custom_data: [
      { name: 'dataone', value: 'xyz' },
      { name: 'datatwo', value: 'abc' },
    ],
    probability: 50,
    close_date: 1414317504,
    contact_ids: contactIds,
  });

  it('3.1 create: the README body lacks pipeline_id and owner_id, which the spec requires (400 naming both); with them it is created', async () => {
    const [a, b] = [await make.contact(person('A')), await make.contact(person('B'))];
    expectError(await curlWrap('opportunity', phpJson(dealJson([String(a), String(b)])), 'POST', 'application/json'), 400, 'validation_failed', ['pipeline_id', 'owner_id']);
    const track = await make.track();
    const res = await curlWrap('opportunity', phpJson({ ...dealJson([String(a), String(b)]), pipeline_id: String(track.id), owner_id: String(ann.id) }), 'POST', 'application/json');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'test deal', expected_value: 1000, probability: 50, milestone: 'Open', contact_ids: [String(a), String(b)] });
  });

  it('3.2 get, 3.4 partial update, 3.5 deals of a contact, 3.3 delete; Tester full update (PUT) without pipeline_id/owner_id is a 400', async () => {
    const c = await make.contact(person('C'));
    const id = await make.deal({ contact_ids: [c] });
    expect((await curlWrap(`opportunity/${id}`, null, 'GET', 'application/json')).body).toMatchObject({ id, name: 'D' });
    const track = await make.track();
    const patch = phpJson({ id: String(id), name: 'test deal', description: 'this is a test deal', expected_value: 3000, milestone: 'Open', pipeline_id: String(track.id), custom_data: [{ name: 'dataone', value: 'xyz' }], contact_ids: [String(c)] });
    const patched = await curlWrap('opportunity/partial-update', patch, 'PUT', 'application/json');
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id, name: 'test deal', expected_value: 3000, custom_data: [{ name: 'dataone', value: 'xyz' }] });
    const ofContact = await curlWrap(`contacts/${c}/deals`, null, 'GET', 'application/json');
    expect(ofContact.status).toBe(200);
    expect(ofContact.body.map((d: { id: number }) => d.id)).toEqual([id]);
    const full = phpJson({ id: String(id), ...dealJson([String(c)]), expected_value: 2000, probability: 80 });
    expectError(await curlWrap('opportunity', full, 'PUT', 'application/json'), 400, 'validation_failed', ['pipeline_id', 'owner_id']);
    const deleted = await curlWrap(`opportunity/${id}`, null, 'DELETE', 'application/json');
    expect(deleted.status).toBe(200);
    expect(await ctx.connection.collection<{ _id: number }>('deals').countDocuments({ _id: id })).toBe(0);
  });
});

describe('4. Note', () => {
  it('4.1 create with owner_id, 4.2 notes of a contact, 4.3 update with owner_id; Tester create', async () => {
    const c = await make.contact(person('C'));
    const created = await curlWrap('notes', phpJson({ subject: 'test note', description: 'this is a test note', contact_ids: [c], owner_id: bob.id }), 'POST', 'application/json');
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ subject: 'test note', contacts: [String(c)], owner_id: bob.id });
    const listed = await curlWrap(`contacts/${c}/notes`, null, 'GET', 'application/json');
    expect(listed.status).toBe(200);
    expect(listed.body.map((n: { id: number }) => n.id)).toEqual([created.body.id]);
    const updated = await curlWrap('notes', phpJson({ id: created.body.id, subject: 'note', description: 'this is a test note', contact_ids: [c], owner_id: ann.id }), 'PUT', 'application/json');
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: created.body.id, subject: 'note', owner_id: ann.id });
    const tester = await curlWrap('notes', phpJson({ subject: 'test note', description: 'this is a test note', contact_ids: [String(c)] }), 'POST', 'application/json');
    expect(tester.status).toBe(200);
    expect(tester.body.owner_id).toBe(ann.id);
  });
});

describe('5. Task', () => {
  it('5.1 create, 5.2 get, 5.4 partial update, 5.3 delete; the Tester task without due is a 400 (due is required)', async () => {
    const c = await make.contact(person('C'));
    const task = { type: 'MILESTONE', priority_type: 'HIGH', due: 1414671165, contacts: [c], subject: 'this is a test task', status: 'YET_TO_START', owner_id: bob.id };
    const created = await curlWrap('tasks', phpJson(task), 'POST', 'application/json');
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ type: 'MILESTONE', owner_id: bob.id, status: 'YET_TO_START', contacts: [expect.objectContaining({ id: c })] });
    const id = created.body.id;
    expect((await curlWrap(`tasks/${id}`, null, 'GET', 'application/json')).body.id).toBe(id);
    const patched = await curlWrap('tasks/partial-update', phpJson({ ...task, id, priority_type: 'LOW' }), 'PUT', 'application/json');
    expect(patched.status).toBe(200);
    expect(patched.body.priority_type).toBe('LOW');
    expect((await curlWrap(`tasks/${id}`, null, 'DELETE', 'application/json')).status).toBe(204);
    const tester = { type: 'MILESTONE', priority_type: 'HIGH', contacts: [String(c)], subject: 'this is a test task', status: 'YET_TO_START' };
    expectError(await curlWrap('tasks', phpJson(tester), 'POST', 'application/json'), 400, 'validation_failed', ['due']);
  });
});

describe('6. Event', () => {
  it('6.1 create (contacts as the related ids), 6.3 update, 6.2 delete', async () => {
    const c = await make.contact(person('C'));
    const created = await curlWrap('events', phpJson({ start: 1414155679, end: 1414328479, title: 'this is a test event', contacts: [c], allDay: true }), 'POST', 'application/json');
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ title: 'this is a test event', allDay: true, contacts: [expect.objectContaining({ id: c })] });
    const id = created.body.id;
    const updated = await curlWrap('events', phpJson({ id, start: 1414155679, end: 1414328479, title: 'this is a test event', contacts: [c], allDay: false }), 'PUT', 'application/json');
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, allDay: false });
    expect((await curlWrap(`events/${id}`, null, 'DELETE', 'application/json')).status).toBe(204);
  });
});

describe('7. Tracks', () => {
  it('7.1 / 7.3 with the README\'s lowercase milestones are a 400 (the spec: each milestone starts uppercase); 7.2 list, 7.4 delete', async () => {
    expectError(await curlWrap('milestone/pipelines', phpJson({ name: 'new', milestones: 'one, two, three' }), 'POST', 'application/json'), 400, 'validation_failed', ['milestones']);
    const created = await curlWrap('milestone/pipelines', phpJson({ name: 'new', milestones: 'One, Two, Three' }), 'POST', 'application/json');
    expect(created.status).toBe(200);
    const id = created.body.id;
    expectError(await curlWrap('milestone/pipelines', phpJson({ id, name: 'latest', milestones: 'one, two, three, four' }), 'PUT', 'application/json'), 400, 'validation_failed', ['milestones']);
    const updated = await curlWrap('milestone/pipelines', phpJson({ id, name: 'latest', milestones: 'One, Two, Three, Four' }), 'PUT', 'application/json');
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, name: 'latest', milestones: 'One,Two,Three,Four' });
    const listed = await curlWrap('milestone/pipelines', null, 'GET', 'application/json');
    expect(listed.body.map((t: { name: string }) => t.name).sort()).toEqual(['Default', 'latest']);
    expect((await curlWrap(`milestone/pipelines/${id}`, null, 'DELETE', 'application/json')).status).toBe(204);
  });
});

describe('8. Users', () => {
  it('8.1 users and 8.2 current user ($content_type NULL)', async () => {
    const users = await curlWrap('users', null, 'GET', null);
    expect(users.status).toBe(200);
    expect(users.body.map((u: { email: string }) => u.email).sort()).toEqual(['ann@acme.test', 'bob@acme.test']);
    const me = await curlWrap('users/current-user', null, 'GET', null);
    expect(me.body).toMatchObject({ id: ann.id, email: 'ann@acme.test', password: '**********' });
  });
});
