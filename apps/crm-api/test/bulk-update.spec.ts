import { expectError, storedState } from './expectations';
import { company, person, setupCrmApp, type TestUser } from './setup-app';

/** POST /dev/api/bulk/update?action_type=… (the Node client's addTagstoContacts / deleteTagstoContacts, the original's bulk actions). */
const ctx = setupCrmApp();
const stored = () => storedState(ctx.connection);
const FORM = 'application/x-www-form-urlencoded';

let ann: TestUser, bob: TestUser, zed: TestUser;
beforeEach(async () => {
  ({ ann, colleague: bob, zed } = await ctx.threeUsers());
});

async function create(user: TestUser, body: object): Promise<number> {
  const res = await ctx.as(user).post('/dev/api/contacts').send(body);
  expect(res.status).toBe(200);
  return res.body.id;
}

const tagsOf = async (id: number) => Object.keys((await ctx.Contact.findById(id).lean())?.tag_times ?? {});

/** A bulk call as the Node client writes it: querystring-encoded form, JSON-array text, Accept any. */
const bulk = (user: TestUser, action: string, fields: Record<string, string>) =>
  ctx
    .as(user)
    .post(`/dev/api/bulk/update?action_type=${action}`)
    .set('Accept', '*/*')
    .set('Content-Type', FORM)
    .send(new URLSearchParams(fields).toString());

describe('ADD_TAG and REMOVE_TAG', () => {
  it('adds every tag to every listed person of the account (204), keeping present tags and their times', async () => {
    const [a, b] = [await create(ann, person('A', undefined, { tags: ['VIP'] })), await create(ann, person('B'))];
    const vipTime = (await ctx.Contact.findById(a).lean())!.tag_times.VIP;
    const res = await bulk(ann, 'ADD_TAG', { data: JSON.stringify(['VIP', 'Q3 lead']), contact_ids: JSON.stringify([String(a), b]) });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await tagsOf(a)).toEqual(['VIP', 'Q3 lead']);
    expect(await tagsOf(b)).toEqual(['VIP', 'Q3 lead']);
    expect((await ctx.Contact.findById(a).lean())!.tag_times.VIP).toBe(vipTime);
  });

  it('removes the listed tags that are present', async () => {
    const a = await create(ann, person('A', undefined, { tags: ['VIP', 'Lead', 'Old'] }));
    const res = await bulk(ann, 'REMOVE_TAG', { data: '["Old","VIP","Absent"]', contact_ids: `[${a}]` });
    expect(res.status).toBe(204);
    expect(await tagsOf(a)).toEqual(['Lead']);
  });

  it('ignores ids of no contact of the account: another account is untouched', async () => {
    const mine = await create(ann, person('A'));
    const theirs = await create(zed, person('Z'));
    expect((await bulk(ann, 'ADD_TAG', { data: '["VIP"]', contact_ids: JSON.stringify([mine, theirs, 987654]) })).status).toBe(204);
    expect(await tagsOf(mine)).toEqual(['VIP']);
    expect(await tagsOf(theirs)).toEqual([]);
  });

  it('refuses bad input with a 400 naming the field, and writes nothing', async () => {
    const a = await create(ann, person('A'));
    const co = await create(ann, company('Acme'));
    const before = await stored();
    const cases: Array<[string, Record<string, string>, string]> = [
      ['ADD_TAG', { contact_ids: `[${a}]` }, 'data'],
      ['ADD_TAG', { data: '["1bad"]', contact_ids: `[${a}]` }, 'data.0'],
      ['ADD_TAG', { data: '[VIP, 9x]', contact_ids: `[${a}]` }, 'data.1'],
      ['ADD_TAG', { data: '[]', contact_ids: `[${a}]` }, 'data'],
      ['ADD_TAG', { data: '"VIP"', contact_ids: `[${a}]` }, 'data'],
      ['ADD_TAG', { data: '["VIP"]', contact_ids: `[${a}, ${co}]` }, 'contact_ids'],
      ['ADD_TAG', { data: '["VIP"]', contact_ids: '[]' }, 'contact_ids'],
      ['ADD_TAG', { data: '["VIP"]', contact_ids: '["x"]' }, 'contact_ids.0'],
      ['ADD_TAG', { data: '["VIP"]', contact_ids: JSON.stringify(Array.from({ length: 101 }, (_, i) => i + 1)) }, 'contact_ids'],
      ['ADD_TAG', { data: '["VIP"]' }, 'contact_ids'],
      ['REMOVE_TAG', { contact_ids: `[${a}]` }, 'data'],
      ['DELETE', { data: '["VIP"]', contact_ids: `[${a}]` }, 'data'],
      ['CHANGE_OWNER', { contact_ids: `[${a}]` }, 'owner'],
      // the Java client's names (ids, tags) are the same fields, as strict
      ['DELETE', { ids: '[]' }, 'ids'],
      ['DELETE', { ids: `[${a}, x]` }, 'ids.1'],
      ['DELETE', { ids: `[${a}]`, contact_ids: `[${a}]` }, 'ids'],
      ['DELETE', { ids: `[${a}]`, tags: '[VIP]' }, 'tags'],
      ['ADD_TAG', { ids: `[${a}]` }, 'data'],
      ['ADD_TAG', { tags: '[VIP, 9x]', contact_ids: `[${a}]` }, 'tags.1'],
      ['ADD_TAG', { tags: '[VIP]', data: '["VIP"]', contact_ids: `[${a}]` }, 'tags'],
      ['ADD_TAG', { tags: '[VIP]', contact_ids: `[${a}, ${co}]` }, 'contact_ids'],
      ['add_tag', { data: '["VIP"]', contact_ids: `[${a}]` }, 'action_type'],
      ['EXPORT_CONTACTS_CSV', { contact_ids: `[${a}]` }, 'action_type'],
    ];
    for (const [action, fields, field] of cases) {
      const res = await bulk(ann, action, fields).set('Accept', 'application/json');
      expectError(res, 400, 'validation_failed', [field]);
    }
    expectError(await ctx.as(ann).post('/dev/api/bulk/update').type('form').send(`contact_ids=[${a}]`), 400, 'validation_failed', ['action_type']);
    expect(await stored()).toEqual(before);
  });
});

describe('DELETE and CHANGE_OWNER', () => {
  it('DELETE removes the listed contacts of the account, as C5 does (related notes lose them)', async () => {
    const [a, b, keep] = [await create(ann, person('A', 'a@x.test')), await create(ann, company('Co')), await create(ann, person('K'))];
    const theirs = await create(zed, person('Z'));
    const note = await ctx.as(ann).post('/dev/api/notes').send({ subject: 'S', description: 'D', contact_ids: [a, keep] });
    const res = await bulk(ann, 'DELETE', { contact_ids: JSON.stringify([a, b, theirs]) });
    expect(res.status).toBe(204);
    expect((await ctx.Contact.find({}, { _id: 1 }).sort({ _id: 1 }).lean()).map((c) => c._id)).toEqual([keep, theirs].sort((x, y) => x - y));
    expect((await ctx.as(ann).get('/dev/api/contacts/list/count')).body).toEqual({ count: 1 });
    expect((await ctx.connection.collection('notes').findOne({ _id: note.body.id }))?.contacts).toEqual([keep]);
    // the email is free again
    expect((await ctx.as(ann).post('/dev/api/contacts').send(person('A2', 'a@x.test'))).status).toBe(200);
  });

  it('CHANGE_OWNER gives the listed contacts to a user of the account; another account user is a 400', async () => {
    const [a, b] = [await create(ann, person('A')), await create(ann, company('Co'))];
    const res = await ctx.as(ann).post(`/dev/api/bulk/update?action_type=CHANGE_OWNER&owner=${bob.id}`).type('form').send(`contact_ids=[${a},${b}]`);
    expect(res.status).toBe(204);
    expect((await ctx.as(ann).get(`/dev/api/contacts/${a}`)).body.domainUser.email).toBe('bob@acme.test');
    expect((await ctx.as(ann).get(`/dev/api/contacts/${b}`)).body.domainUser.email).toBe('bob@acme.test');
    const before = await stored();
    const refused = await ctx.as(ann).post(`/dev/api/bulk/update?action_type=CHANGE_OWNER&owner=${zed.id}`).type('form').send(`contact_ids=[${a}]`);
    expectError(refused, 400, 'validation_failed', ['owner']);
    expect(await stored()).toEqual(before);
  });

  it('needs credentials', async () => {
    const res = await ctx.as({ ...ann, auth: 'Basic eDp5' }).post('/dev/api/bulk/update?action_type=DELETE').type('form').send('contact_ids=[1]');
    expect(res.status).toBe(401);
  });
});

describe('GET /dev/api/contacts/search/phonenumber/{phone}', () => {
  it('200 with the contact whose phone property has exactly that value; 204 when none (also in another account); 400 when not a number', async () => {
    const phone = (value: string) => ({ type: 'SYSTEM', name: 'phone', subtype: 'work', value });
    const a = await create(ann, { properties: [{ type: 'SYSTEM', name: 'first_name', value: 'A' }, phone('+1-541-754-3030')] });
    await create(zed, { properties: [{ type: 'SYSTEM', name: 'first_name', value: 'Z' }, phone('0400 000 000')] });
    const found = await ctx.as(ann).get('/dev/api/contacts/search/phonenumber/+1-541-754-3030');
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ id: a, properties: expect.arrayContaining([phone('+1-541-754-3030')]) });
    expect((await ctx.as(ann).get('/dev/api/contacts/search/phonenumber/%2B1-541-754-3030')).body.id).toBe(a);
    for (const other of ['15417543030', '0400%20000%20000']) {
      const res = await ctx.as(ann).get(`/dev/api/contacts/search/phonenumber/${other}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
    }
    for (const bad of ['abc', '%24gt', `${'1'.repeat(51)}`]) {
      expectError(await ctx.as(ann).get(`/dev/api/contacts/search/phonenumber/${bad}`), 400, 'validation_failed', ['phone']);
    }
  });
});
