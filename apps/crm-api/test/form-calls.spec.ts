import { company, person, setupCrmApp, type TestUser } from './setup-app';
import { expectRefused, storedState } from './expectations';

const ctx = setupCrmApp();
const stored = () => storedState(ctx.connection);

const FORM = 'application/x-www-form-urlencoded';

async function create(user: TestUser, body: object): Promise<{ id: number } & Record<string, unknown>> {
  const res = await ctx.as(user).post('/dev/api/contacts').send(body);
  expect(res.status).toBe(200);
  return res.body;
}

/** A company that carries an email property, so email calls can reach it. */
const companyWithEmail = (name: string, email: string) => ({
  type: 'COMPANY',
  properties: [
    { type: 'SYSTEM', name: 'name', value: name },
    { type: 'SYSTEM', name: 'email', subtype: 'work', value: email },
  ],
});

const form = (user: TestUser, path: string, fields: Record<string, string>) => ctx.as(user).post(path).type('form').send(fields);

const fieldsOf = (res: { body: { error?: { fields?: { field: string }[] } } }) => (res.body.error?.fields ?? []).map((f) => f.field);

let ann: TestUser;
beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
});

describe('C6 POST /dev/api/contacts/search/email', () => {
  const path = '/dev/api/contacts/search/email';

  it('finds several contacts at once (form call, email_ids as JSON-array text)', async () => {
    const a = await create(ann, person('Al', 'al@x.test'));
    await create(ann, person('Bo', 'bo@x.test'));
    const c = await create(ann, person('Cy', 'cy@x.test'));
    const res = await ctx
      .as(ann)
      .post(path)
      .set('Content-Type', FORM)
      .send(`email_ids=${encodeURIComponent(JSON.stringify(['al@x.test', 'cy@x.test', 'nobody@x.test']))}`);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.map((x: { id: number }) => x.id)).toEqual([a.id, c.id]);
    expect(res.body[0]).toMatchObject({ id: a.id, type: 'PERSON', properties: a.properties, domainUser: { email: 'ann@acme.test' } });
  });

  it('accepts a JSON body with a real array', async () => {
    const a = await create(ann, person('Al', 'al@x.test'));
    const res = await ctx.as(ann).post(path).send({ email_ids: ['al@x.test'] });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0].id).toBe(a.id);
  });

  it('answers {} when nothing matches (emails are case-sensitive)', async () => {
    await create(ann, person('Al', 'al@x.test'));
    const res = await form(ann, path, { email_ids: JSON.stringify(['AL@x.test', 'zed@x.test']) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
  });

  it('400 naming the field for a malformed email', async () => {
    const res = await form(ann, path, { email_ids: JSON.stringify(['ok@x.test', 'not-an-email']) });
    expectRefused(res, 400, 'validation_failed');
    expect(fieldsOf(res)).toEqual(['email_ids[1]']);
    expect(res.body.error.message).toContain('email_ids[1]');
    expect(res.body.error.message).toContain('not-an-email');
  });

  it('400 when email_ids is not JSON-array text, is empty, or is missing', async () => {
    for (const email_ids of ['al@x.test', '["al@x.test"', '{"a":1}', '"al@x.test"']) {
      const res = await form(ann, path, { email_ids });
      expectRefused(res, 400, 'validation_failed');
      expect(fieldsOf(res)).toEqual(['email_ids']);
      expect(res.body.error.message).toMatch(/^email_ids/);
    }
    const empty = await form(ann, path, { email_ids: '[]' });
    expectRefused(empty, 400, 'validation_failed');
    expect(fieldsOf(empty)).toEqual(['email_ids']);
    const missing = await form(ann, path, { other: 'x' });
    expectRefused(missing, 400, 'validation_failed');
    expect(fieldsOf(missing)).toEqual(expect.arrayContaining(['email_ids']));
  });
});

describe('C7 POST /dev/api/contacts/email/tags/add', () => {
  const path = '/dev/api/contacts/email/tags/add';

  it('204 with an empty body; adds the tags with their time in epoch ms', async () => {
    const c = await create(ann, person('Al', 'al@x.test', { tags: ['old'] }));
    const before = Date.now();
    const res = await form(ann, path, { email: 'al@x.test', tags: JSON.stringify(['lead', 'hot deal', 'Q_3']) });
    const after = Date.now();
    expect(res.status).toBe(204);
    expect(res.text).toBe('');

    const read = await ctx.as(ann).get(`/dev/api/contacts/${c.id}`);
    expect(read.body.tags).toEqual(['old', 'lead', 'hot deal', 'Q_3']);
    const times = JSON.parse(read.body.tags_with_time_json);
    expect(Object.keys(times)).toEqual(['old', 'lead', 'hot deal', 'Q_3']);
    for (const tag of ['lead', 'hot deal', 'Q_3']) {
      expect(times[tag]).toBeGreaterThanOrEqual(before);
      expect(times[tag]).toBeLessThanOrEqual(after);
    }
    const doc = await ctx.Contact.findById(c.id).lean();
    expect(Object.keys(doc!.tag_times)).toEqual(['old', 'lead', 'hot deal', 'Q_3']);
  });

  it('re-adding an existing tag keeps its first time', async () => {
    const c = await create(ann, person('Al', 'al@x.test'));
    expect((await form(ann, path, { email: 'al@x.test', tags: '["first"]' })).status).toBe(204);
    const firstTime = (await ctx.Contact.findById(c.id).lean())!.tag_times.first;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await form(ann, path, { email: 'al@x.test', tags: '["first","second"]' })).status).toBe(204);
    const times = (await ctx.Contact.findById(c.id).lean())!.tag_times;
    expect(times.first).toBe(firstTime);
    expect(times.second).toBeGreaterThan(firstTime);
    expect(Object.keys(times)).toEqual(['first', 'second']);
  });

  it('accepts a JSON body too', async () => {
    const c = await create(ann, person('Al', 'al@x.test'));
    expect((await ctx.as(ann).post(path).send({ email: 'al@x.test', tags: ['json_tag'] })).status).toBe(204);
    expect(Object.keys((await ctx.Contact.findById(c.id).lean())!.tag_times)).toEqual(['json_tag']);
  });

  it('400 for a bad tag name, and stores nothing', async () => {
    await create(ann, person('Al', 'al@x.test', { tags: ['keep'] }));
    const snapshot = await stored();
    for (const tag of ['1st', '_x', 'a-b', 'dots.no', 'ümlaut', '', ' lead']) {
      const res = await form(ann, path, { email: 'al@x.test', tags: JSON.stringify(['fine', tag]) });
      expectRefused(res, 400, 'validation_failed');
      expect(fieldsOf(res)[0]).toMatch(/^tags/);
    }
    expectRefused(await form(ann, path, { email: 'al@x.test', tags: 'lead' }), 400);
    expectRefused(await form(ann, path, { email: 'al@x.test', tags: '[]' }), 400);
    expectRefused(await form(ann, path, { email: 'al@x.test' }), 400);
    expect(await stored()).toEqual(snapshot);
  });

  it('400 for an unknown email, naming it', async () => {
    await create(ann, person('Al', 'al@x.test'));
    const snapshot = await stored();
    const res = await form(ann, path, { email: 'Al@x.test', tags: '["lead"]' });
    expectRefused(res, 400);
    expect(res.body.error.message).toContain('Al@x.test');
    expect(await stored()).toEqual(snapshot);
  });

  it('400 for a company', async () => {
    await create(ann, companyWithEmail('Acme', 'info@acme.test'));
    const snapshot = await stored();
    const res = await form(ann, path, { email: 'info@acme.test', tags: '["lead"]' });
    expectRefused(res, 400);
    expect(res.body.error.message).toMatch(/compan/i);
    expect(await stored()).toEqual(snapshot);
  });
});

describe('C8 POST /dev/api/contacts/email/tags/delete', () => {
  const path = '/dev/api/contacts/email/tags/delete';

  it('204; removes the present tags, ignores absent ones, keeps the others with their times', async () => {
    const c = await create(ann, person('Al', 'al@x.test', { tags: ['a', 'b', 'c', 'd'] }));
    const timesBefore = (await ctx.Contact.findById(c.id).lean())!.tag_times;
    const res = await form(ann, path, { email: 'al@x.test', tags: JSON.stringify(['b', 'absent', 'd']) });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const read = await ctx.as(ann).get(`/dev/api/contacts/${c.id}`);
    expect(read.body.tags).toEqual(['a', 'c']);
    expect(JSON.parse(read.body.tags_with_time_json)).toEqual({ a: timesBefore.a, c: timesBefore.c });
  });

  it('removing only absent tags changes nothing visible', async () => {
    const c = await create(ann, person('Al', 'al@x.test', { tags: ['a'] }));
    expect((await ctx.as(ann).post(path).send({ email: 'al@x.test', tags: ['zzz'] })).status).toBe(204);
    expect(Object.keys((await ctx.Contact.findById(c.id).lean())!.tag_times)).toEqual(['a']);
  });

  it('400 for an unknown email, a company, a bad tag; nothing stored', async () => {
    await create(ann, person('Al', 'al@x.test', { tags: ['a'] }));
    await create(ann, companyWithEmail('Acme', 'info@acme.test'));
    const snapshot = await stored();
    const unknown = await form(ann, path, { email: 'nobody@x.test', tags: '["a"]' });
    expectRefused(unknown, 400);
    expect(unknown.body.error.message).toContain('nobody@x.test');
    expectRefused(await form(ann, path, { email: 'info@acme.test', tags: '["a"]' }), 400);
    expectRefused(await form(ann, path, { email: 'al@x.test', tags: '["9a"]' }), 400);
    expectRefused(await form(ann, path, { email: 'al@x.test', tags: 'a' }), 400);
    expect(await stored()).toEqual(snapshot);
  });
});

describe('C9 POST /dev/api/contacts/add-score', () => {
  const path = '/dev/api/contacts/add-score';

  it('raises and lowers the score; 200 with the contact', async () => {
    const c = await create(ann, person('Al', 'al@x.test', { lead_score: 10 }));
    const up = await form(ann, path, { email: 'al@x.test', score: '5' });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ id: c.id, type: 'PERSON', lead_score: 15, domainUser: { email: 'ann@acme.test' } });
    const down = await form(ann, path, { email: 'al@x.test', score: '-3' });
    expect(down.status).toBe(200);
    expect(down.body.lead_score).toBe(12);
    expect((await ctx.Contact.findById(c.id).lean())!.lead_score).toBe(12);
    // down to exactly 0 is allowed
    const zero = await ctx.as(ann).post(path).send({ email: 'al@x.test', score: -12 });
    expect(zero.status).toBe(200);
    expect(zero.body.lead_score).toBe(0);
  });

  it('400 for a non-integer score, a change below 0, a company, an unknown email; nothing stored', async () => {
    await create(ann, person('Al', 'al@x.test', { lead_score: 2 }));
    await create(ann, companyWithEmail('Acme', 'info@acme.test'));
    const snapshot = await stored();
    for (const score of ['1.5', 'abc', '', '1e3', '+-1']) {
      const res = await form(ann, path, { email: 'al@x.test', score });
      expectRefused(res, 400, 'validation_failed');
      expect(fieldsOf(res)).toContain('score');
    }
    const below = await form(ann, path, { email: 'al@x.test', score: '-3' });
    expectRefused(below, 400);
    expect(fieldsOf(below)).toEqual(['score']);
    const companyRes = await form(ann, path, { email: 'info@acme.test', score: '1' });
    expectRefused(companyRes, 400);
    expect(companyRes.body.error.message).toMatch(/compan/i);
    const unknown = await form(ann, path, { email: 'nobody@x.test', score: '1' });
    expectRefused(unknown, 400);
    expect(unknown.body.error.message).toContain('nobody@x.test');
    expectRefused(await form(ann, path, { email: 'al@x.test' }), 400);
    expect(await stored()).toEqual(snapshot);
  });
});

describe('C11 POST /dev/api/contacts/add/property', () => {
  const path = (email: string) => `/dev/api/contacts/add/property?email=${encodeURIComponent(email)}`;
  const base = () =>
    person('Al', 'al@x.test', {
      properties: [
        { type: 'SYSTEM', name: 'first_name', value: 'Al' },
        { type: 'SYSTEM', name: 'last_name', value: 'Smith' },
        { type: 'SYSTEM', name: 'email', subtype: 'work', value: 'al@x.test' },
        { type: 'SYSTEM', name: 'phone', subtype: 'work', value: '111' },
      ],
      tags: ['t1'],
      lead_score: 4,
      star_value: 2,
    });

  it('adds a new property and leaves everything else untouched', async () => {
    const c = await create(ann, base());
    const res = await ctx.as(ann).post(path('al@x.test')).send({ type: 'CUSTOM', name: 'nickname', value: 'Ally' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: c.id, tags: ['t1'], lead_score: 4, star_value: 2 });
    expect(res.body.properties).toEqual([...(c.properties as object[]), { type: 'CUSTOM', name: 'nickname', value: 'Ally' }]);
    const doc = await ctx.Contact.findById(c.id).lean();
    expect(doc!.properties).toHaveLength(5);
  });

  it('replaces the property with the same name (and subtype) in place', async () => {
    const c = await create(ann, base());
    const res = await ctx.as(ann).post(path('al@x.test')).send({ type: 'SYSTEM', name: 'last_name', value: 'Jones' });
    expect(res.status).toBe(200);
    expect(res.body.properties).toEqual([
      { type: 'SYSTEM', name: 'first_name', value: 'Al' },
      { type: 'SYSTEM', name: 'last_name', value: 'Jones' },
      { type: 'SYSTEM', name: 'email', subtype: 'work', value: 'al@x.test' },
      { type: 'SYSTEM', name: 'phone', subtype: 'work', value: '111' },
    ]);
    // same name, other subtype: added next to it
    const home = await ctx.as(ann).post(path('al@x.test')).send({ type: 'SYSTEM', name: 'phone', subtype: 'home', value: '222' });
    expect(home.status).toBe(200);
    // same name and subtype: replaced
    const work = await ctx.as(ann).post(path('al@x.test')).send({ type: 'SYSTEM', name: 'phone', subtype: 'work', value: '333' });
    expect(work.status).toBe(200);
    const phones = work.body.properties.filter((p: { name: string }) => p.name === 'phone');
    expect(phones).toEqual([
      { type: 'SYSTEM', name: 'phone', subtype: 'work', value: '333' },
      { type: 'SYSTEM', name: 'phone', subtype: 'home', value: '222' },
    ]);
    expect((await ctx.Contact.findById(c.id).lean())!.properties).toHaveLength(5);
  });

  it('a new email value moves the lookups to it', async () => {
    const c = await create(ann, base());
    const res = await ctx.as(ann).post(path('al@x.test')).send({ type: 'SYSTEM', name: 'email', subtype: 'work', value: 'al2@x.test' });
    expect(res.status).toBe(200);
    expect((await ctx.as(ann).get('/dev/api/contacts/search/email/al@x.test')).status).toBe(204);
    expect((await ctx.as(ann).get('/dev/api/contacts/search/email/al2@x.test')).body.id).toBe(c.id);
    expect((await ctx.EmailClaim.find().lean()).map((x) => x._id)).toEqual([`${ann.account}:al2@x.test`]);
  });

  it('checks the rules: bad subtype, bad address JSON, another person\'s email; nothing stored', async () => {
    await create(ann, base());
    await create(ann, person('Bo', 'bo@x.test'));
    const snapshot = await stored();
    const badSubtype = await ctx.as(ann).post(path('al@x.test')).send({ type: 'SYSTEM', name: 'email', subtype: 'office', value: 'x@x.test' });
    expectRefused(badSubtype, 400, 'validation_failed');
    expect(fieldsOf(badSubtype)[0]).toMatch(/subtype$/);
    for (const value of ['not json', '[1,2]', '{"street":"x"}', '{"city":1}']) {
      const res = await ctx.as(ann).post(path('al@x.test')).send({ type: 'SYSTEM', name: 'address', subtype: 'home', value });
      expectRefused(res, 400, 'validation_failed');
      expect(fieldsOf(res)[0]).toMatch(/value$/);
    }
    const dup = await ctx.as(ann).post(path('al@x.test')).send({ type: 'SYSTEM', name: 'email', subtype: 'work', value: 'bo@x.test' });
    expectRefused(dup, 400, 'duplicate_email');
    expect(dup.body.error.message).toContain('bo@x.test');
    const badEmail = await ctx.as(ann).post(path('al@x.test')).send({ type: 'SYSTEM', name: 'email', subtype: 'work', value: 'nope' });
    expectRefused(badEmail, 400);
    const badType = await ctx.as(ann).post(path('al@x.test')).send({ type: 'system', name: 'x', value: 'y' });
    expectRefused(badType, 400);
    const blankFirst = await ctx.as(ann).post(path('al@x.test')).send({ type: 'SYSTEM', name: 'first_name', value: '' });
    expectRefused(blankFirst, 400);
    expect(await stored()).toEqual(snapshot);
  });

  it('a valid address JSON is stored', async () => {
    await create(ann, base());
    const value = JSON.stringify({ address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701', country: 'US' });
    const res = await ctx.as(ann).post(path('al@x.test')).send({ type: 'SYSTEM', name: 'address', subtype: 'office', value });
    expect(res.status).toBe(200);
    expect(res.body.properties).toContainEqual({ type: 'SYSTEM', name: 'address', subtype: 'office', value });
  });

  it('400 for an unknown email or a missing email query', async () => {
    await create(ann, base());
    const snapshot = await stored();
    const unknown = await ctx.as(ann).post(path('nobody@x.test')).send({ type: 'CUSTOM', name: 'n', value: 'v' });
    expectRefused(unknown, 400);
    expect(unknown.body.error.message).toContain('nobody@x.test');
    const missing = await ctx.as(ann).post('/dev/api/contacts/add/property').send({ type: 'CUSTOM', name: 'n', value: 'v' });
    expectRefused(missing, 400, 'validation_failed');
    expect(fieldsOf(missing)).toEqual(['email']);
    const empty = await ctx.as(ann).post('/dev/api/contacts/add/property?email=').send({ type: 'CUSTOM', name: 'n', value: 'v' });
    expectRefused(empty, 400, 'validation_failed');
    expect(await stored()).toEqual(snapshot);
  });
});

describe('C12 POST /dev/api/contacts/change-owner', () => {
  const path = '/dev/api/contacts/change-owner';

  it('200 with domainUser = the new owner (form call)', async () => {
    const bea = await ctx.user('acme', 'bea@acme.test');
    const c = await create(ann, person('Al', 'al@x.test'));
    const res = await form(ann, path, { owner_email: 'bea@acme.test', contact_id: String(c.id) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: c.id, domainUser: { id: bea.id, email: 'bea@acme.test', password: '**********' } });
    expect((await ctx.Contact.findById(c.id).lean())!.owner).toBe(bea.id);
    // JSON with a numeric id works too, and back to Ann
    const back = await ctx.as(ann).post(path).send({ owner_email: 'ann@acme.test', contact_id: c.id });
    expect(back.status).toBe(200);
    expect(back.body.domainUser.email).toBe('ann@acme.test');
  });

  it('400 saying the user does not exist, for no user and for a user of another account', async () => {
    await ctx.user('other', 'ozzy@other.test');
    const c = await create(ann, person('Al', 'al@x.test'));
    const snapshot = await stored();
    for (const owner_email of ['nobody@acme.test', 'ozzy@other.test', 'ANN@acme.test']) {
      const res = await form(ann, path, { owner_email, contact_id: String(c.id) });
      expectRefused(res, 400);
      expect(res.body.error.message).toMatch(/does not exist/);
      expect(res.body.error.message).toContain(owner_email);
    }
    expect(await stored()).toEqual(snapshot);
  });

  it('404 for an unknown contact id or a contact of another account', async () => {
    const ozzy = await ctx.user('other', 'ozzy@other.test');
    const theirs = await create(ozzy, person('Oz'));
    const snapshot = await stored();
    for (const id of [theirs.id + 1000, theirs.id]) {
      const res = await form(ann, path, { owner_email: 'ann@acme.test', contact_id: String(id) });
      expectRefused(res, 404, 'contact_not_found');
      expect(res.body.error.message).toBe(`No contact with id ${id}`);
    }
    expect(await stored()).toEqual(snapshot);
  });

  it('400 for a bad or missing contact_id or owner_email', async () => {
    const c = await create(ann, person('Al', 'al@x.test'));
    const snapshot = await stored();
    for (const contact_id of ['abc', '0', '-1', '1.5', '']) {
      const res = await form(ann, path, { owner_email: 'ann@acme.test', contact_id });
      expectRefused(res, 400, 'validation_failed');
      expect(fieldsOf(res)).toEqual(['contact_id']);
    }
    const noOwner = await form(ann, path, { contact_id: String(c.id) });
    expectRefused(noOwner, 400, 'validation_failed');
    expect(fieldsOf(noOwner)).toEqual(['owner_email']);
    expect(await stored()).toEqual(snapshot);
  });
});

it('companies are reachable by form calls only where allowed (C6 finds them)', async () => {
  const acme = await create(ann, company('Acme'));
  const withEmail = await create(ann, companyWithEmail('Beta', 'info@beta.test'));
  const res = await form(ann, '/dev/api/contacts/search/email', { email_ids: '["info@beta.test"]' });
  expect(res.status).toBe(200);
  expect(res.body.map((x: { id: number }) => x.id)).toEqual([withEmail.id]);
  expect(acme.type).toBe('COMPANY');
});

describe('names that are also Object.prototype keys', () => {
  it('tags named constructor/toString are kept by C3, C7, C8 and C4 (regression: they were dropped)', async () => {
    const c = await create(ann, person('Al', 'al@x.test', { tags: ['constructor', 'toString', 'plain'] }));
    expect(c.tags).toEqual(['constructor', 'toString', 'plain']);
    expect(Object.keys(JSON.parse(c.tags_with_time_json as string))).toEqual(['constructor', 'toString', 'plain']);
    expect((await form(ann, '/dev/api/contacts/email/tags/add', { email: 'al@x.test', tags: '["valueOf"]' })).status).toBe(204);
    expect((await form(ann, '/dev/api/contacts/email/tags/delete', { email: 'al@x.test', tags: '["toString"]' })).status).toBe(204);
    const doc = await ctx.Contact.findById(c.id).lean();
    expect(Object.keys(doc!.tag_times)).toEqual(['constructor', 'plain', 'valueOf']);
    for (const time of Object.values(doc!.tag_times)) expect(typeof time).toBe('number');
    const put = await ctx.as(ann).put('/dev/api/contacts').send({ id: c.id, tags: ['isPrototypeOf', 'plain'] });
    expect(put.status).toBe(200);
    expect(put.body.tags).toEqual(['isPrototypeOf', 'plain']);
    expect(JSON.parse(put.body.tags_with_time_json).plain).toBe(doc!.tag_times.plain);
  });

  it('C11: a SYSTEM property named constructor with a subtype is a 400, not a 500', async () => {
    await create(ann, person('Al', 'al@x.test'));
    const snapshot = await stored();
    const res = await ctx.as(ann).post('/dev/api/contacts/add/property?email=al@x.test').send({ type: 'SYSTEM', name: 'constructor', subtype: 'work', value: 'x' });
    expectRefused(res, 400, 'validation_failed');
    expect(res.body.error.message).toContain('takes no subtype');
    expect(await stored()).toEqual(snapshot);
    const custom = await ctx.as(ann).post('/dev/api/contacts/add/property?email=al@x.test').send({ type: 'CUSTOM', name: 'toString', subtype: 'work', value: 'x' });
    expect(custom.status).toBe(200);
  });
});
