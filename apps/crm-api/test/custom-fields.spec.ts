import { customFieldModel } from '../src/custom-fields/custom-field.model';
import { dealHelpers } from './deal-helpers';
import { expectError, storedState } from './expectations';
import { company, person, setupCrmApp, type TestUser } from './setup-app';

/** Custom field definitions (the Node client's calls and the original's other reads) and the values records hold. */
const ctx = setupCrmApp();
const h = dealHelpers(ctx);
const Field = () => customFieldModel(ctx.connection);
const PATH = '/dev/api/custom-fields';

let ann: TestUser;
let zed: TestUser;
beforeEach(async () => {
  await Field().deleteMany({});
  await ctx.connection.collection('deals').deleteMany({});
  ann = await ctx.user('acme', 'ann@acme.test');
  zed = await ctx.user('other', 'zed@other.test');
});

async function define(user: TestUser, body: object) {
  const res = await ctx.as(user).post(PATH).send(body);
  expect(res.status).toBe(200);
  return res.body as { id: number } & Record<string, unknown>;
}
const plan = { field_label: 'Plan', field_type: 'LIST', field_data: 'Basic;Pro;Enterprise', scope: 'CONTACT' };

describe('POST /dev/api/custom-fields', () => {
  it('creates a definition with the original\'s fields and defaults, and stores it in the account', async () => {
    const res = await ctx.as(ann).post(PATH).send({ field_label: '  Date of Joining ', field_type: 'DATE', field_description: 'When', searchable: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      field_type: 'DATE',
      field_label: 'Date of Joining',
      field_description: 'When',
      is_required: false,
      searchable: true,
      search_key: 'DateofJoining_time_epoch',
      scope: 'CONTACT',
      position: 0,
    });
    const stored = await Field().find().lean();
    expect(stored).toEqual([expect.objectContaining({ _id: res.body.id, account: ann.account, field_label: 'Date of Joining', label_key: 'date of joining', scope_group: 'CONTACT' })]);
  });

  it('answers XML when asked', async () => {
    const res = await ctx.as(ann).post(PATH).set('Accept', 'application/xml').send(plan);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<customFieldDef>');
    expect(res.text).toContain('<field_data>Basic;Pro;Enterprise</field_data>');
  });

  it.each([
    [{ field_type: 'TEXT' }, ['field_label']],
    [{ field_label: 'X' }, ['field_type']],
    [{ field_label: 'X', field_type: 'text' }, ['field_type']],
    [{ field_label: 'X', field_type: 'MULTICHECKBOX' }, ['field_type']],
    [{ field_label: 'X', field_type: 'TEXT', scope: 'contact' }, ['scope']],
    [{ field_label: 'X', field_type: 'LIST' }, ['field_data']],
    [{ field_label: 'X', field_type: 'LIST', field_data: ' ; ' }, ['field_data']],
    [{ field_label: 'X', field_type: 'LIST', field_data: Array(201).fill('o').join(';') }, ['field_data']],
    [{ field_label: 'x'.repeat(101), field_type: 'TEXT' }, ['field_label']],
    [{ field_label: 'X', field_type: 'TEXT', field_description: 'd'.repeat(1001) }, ['field_description']],
    [{ field_label: 'X', field_type: 'TEXT', is_required: 'yes' }, ['is_required']],
    [{ field_label: 'X', field_type: 'TEXT', position: -1 }, ['position']],
    [{ field_label: 'X', field_type: 'TEXT', colour: 'red' }, ['colour']],
    [{ field_label: 'X', field_type: 'TEXT', id: 5 }, ['id']],
  ])('answers 400 naming the field for %p and stores nothing', async (body, fields) => {
    const before = await storedState(ctx.connection);
    expectError(await ctx.as(ann).post(PATH).send(body), 400, 'validation_failed', fields);
    expect(await storedState(ctx.connection)).toEqual(before);
  });

  it('refuses a label the scope has, in any letter case, with the original\'s message; PERSON and CONTACT are one scope', async () => {
    await define(ann, plan);
    for (const body of [{ ...plan, field_label: 'plan ' }, { ...plan, scope: 'PERSON' }]) {
      const res = await ctx.as(ann).post(PATH).send(body);
      expectError(res, 400, 'bad_request', ['field_label']);
      expect(res.body.error.message).toBe('Sorry, a custom field with that name is already present.');
    }
    expect(await Field().countDocuments()).toBe(1);
  });

  it('takes the label in another scope with the same type, refuses it with another type (the original\'s rule), and lets another account use it', async () => {
    await define(ann, plan);
    await define(ann, { ...plan, scope: 'DEAL' });
    const res = await ctx.as(ann).post(PATH).send({ field_label: 'Plan', field_type: 'TEXT', scope: 'COMPANY' });
    expectError(res, 400, 'bad_request', ['field_type']);
    expect(res.body.error.message).toContain('LIST');
    await define(zed, { field_label: 'Plan', field_type: 'TEXT' });
    expect(await Field().countDocuments()).toBe(3);
  });

  it('racing creates of one label: exactly one is stored, the others answer 400', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => ctx.as(ann).post(PATH).send({ field_label: 'Budget', field_type: 'NUMBER' })));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
    expect(await Field().countDocuments({ account: ann.account })).toBe(1);
  });

  it('holds at most 200 definitions per account, also when creates race for the last places', async () => {
    const now = Math.floor(Date.now() / 1000);
    await Field().insertMany(
      Array.from({ length: 198 }, (_, i) => ({ _id: 1000 + i, account: ann.account, field_label: `F${i}`, label_key: `f${i}`, field_type: 'TEXT', scope: 'CONTACT', scope_group: 'CONTACT', created_time: now, updated_time: now })),
    );
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => ctx.as(ann).post(PATH).send({ field_label: `New ${i}`, field_type: 'TEXT' })));
    expect(answers.filter((res) => res.status === 200).length).toBeLessThanOrEqual(2);
    for (const res of answers.filter((r) => r.status !== 200)) expectError(res, 400, 'bad_request', ['field_label']);
    expect(await Field().countDocuments({ account: ann.account })).toBeLessThanOrEqual(200);
    // another account is not counted
    await define(zed, { field_label: 'Free', field_type: 'TEXT' });
  });
});

describe('the scope reads', () => {
  it('GET /scope/position lists a scope in position order (position 0 first, in creation order), FORMULA included; /scope leaves FORMULA out', async () => {
    const c = await define(ann, { field_label: 'C', field_type: 'TEXT', position: 2 });
    const b = await define(ann, { field_label: 'B', field_type: 'TEXT', position: 1 });
    const a = await define(ann, { field_label: 'A', field_type: 'TEXT' });
    const f = await define(ann, { field_label: 'F', field_type: 'FORMULA', field_data: '{{first_name}}', scope: 'PERSON' });
    await define(ann, { field_label: 'D', field_type: 'TEXT', scope: 'DEAL' });
    await define(zed, { field_label: 'Z', field_type: 'TEXT' });
    const positioned = await ctx.as(ann).get(`${PATH}/scope/position?scope=CONTACT`);
    expect(positioned.status).toBe(200);
    expect(positioned.body.map((d: { id: number }) => d.id)).toEqual([a.id, f.id, b.id, c.id]);
    const plain = await ctx.as(ann).get(`${PATH}/scope?scope=PERSON`);
    expect(plain.body.map((d: { id: number }) => d.id)).toEqual([a.id, b.id, c.id]);
    const all = await ctx.as(ann).get(PATH);
    expect(all.body.map((d: { field_label: string }) => d.field_label).sort()).toEqual(['A', 'B', 'C', 'D']);
  });

  it('answers [] for a scope without definitions, and 400 naming scope when it is missing or unknown', async () => {
    const res = await ctx.as(ann).get(`${PATH}/scope/position?scope=DEAL`);
    expect([res.status, res.body]).toEqual([200, []]);
    expectError(await ctx.as(ann).get(`${PATH}/scope/position`), 400, 'validation_failed', ['scope']);
    expectError(await ctx.as(ann).get(`${PATH}/scope/position?scope=deal`), 400, 'validation_failed', ['scope']);
  });

  it('GET /:id reads one definition of the account; another account\'s is a 404', async () => {
    const mine = await define(ann, plan);
    const res = await ctx.as(ann).get(`${PATH}/${mine.id}`);
    expect(res.body).toEqual(mine);
    expectError(await ctx.as(zed).get(`${PATH}/${mine.id}`), 404, 'custom_field_not_found');
  });
});

describe('PUT /dev/api/custom-fields', () => {
  it('replaces the whole definition: fields not sent take their defaults', async () => {
    const made = await define(ann, { ...plan, field_description: 'Tier', is_required: true, searchable: true, position: 4 });
    const res = await ctx.as(ann).put(PATH).send({ id: made.id, field_label: 'Tier', field_type: 'TEXT' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: made.id, field_type: 'TEXT', field_label: 'Tier', is_required: false, searchable: false, scope: 'CONTACT', position: 0 });
    const stored = await Field().findById(made.id).lean();
    expect(stored).not.toHaveProperty('field_data');
    expect(stored).not.toHaveProperty('field_description');
  });

  it('answers 404 for an id the account has not (another account\'s included) and 400 without id; nothing changes', async () => {
    const theirs = await define(zed, plan);
    const before = await storedState(ctx.connection);
    expectError(await ctx.as(ann).put(PATH).send({ ...plan, id: theirs.id }), 404, 'custom_field_not_found');
    expectError(await ctx.as(ann).put(PATH).send(plan), 400, 'validation_failed', ['id']);
    expect(await storedState(ctx.connection)).toEqual(before);
  });

  it('refuses renaming onto a label the scope has', async () => {
    await define(ann, plan);
    const other = await define(ann, { field_label: 'Size', field_type: 'TEXT' });
    expectError(await ctx.as(ann).put(PATH).send({ id: other.id, field_label: 'PLAN', field_type: 'LIST', field_data: 'a' }), 400, 'bad_request', ['field_label']);
    expect((await Field().findById(other.id).lean())?.field_label).toBe('Size');
  });
});

describe('DELETE /dev/api/custom-fields/{id}', () => {
  it('deletes the definition (204); an unknown id or another account\'s is a 204 that deletes nothing', async () => {
    const mine = await define(ann, plan);
    const theirs = await define(zed, plan);
    expect((await ctx.as(ann).delete(`${PATH}/${theirs.id}`)).status).toBe(204);
    expect(await Field().countDocuments({ _id: theirs.id })).toBe(1);
    const res = await ctx.as(ann).delete(`${PATH}/${mine.id}`);
    expect([res.status, res.text]).toEqual([204, '']);
    expect(await Field().countDocuments({ _id: mine.id })).toBe(0);
    expect((await ctx.as(ann).delete(`${PATH}/${mine.id}`)).status).toBe(204);
  });
});

describe('POST /dev/api/custom-fields/positions', () => {
  it('sets each position; racing calls leave every definition with one of the positions sent', async () => {
    const a = await define(ann, { field_label: 'A', field_type: 'TEXT' });
    const b = await define(ann, { field_label: 'B', field_type: 'TEXT' });
    const res = await ctx.as(ann).post(`${PATH}/positions`).send([{ id: a.id, position: 2 }, { id: String(b.id), position: 1 }]);
    expect(res.status).toBe(204);
    const list = await ctx.as(ann).get(`${PATH}/scope/position?scope=CONTACT`);
    expect(list.body.map((d: { id: number }) => d.id)).toEqual([b.id, a.id]);
    await Promise.all([3, 4, 5].map((p) => ctx.as(ann).post(`${PATH}/positions`).send([{ id: a.id, position: p }, { id: b.id, position: p + 10 }])));
    const stored = await Field().find().sort({ _id: 1 }).lean();
    expect([3, 4, 5]).toContain(stored[0].position);
    expect([13, 14, 15]).toContain(stored[1].position);
  });

  it('answers 400 naming an id the account has not, before any write', async () => {
    const a = await define(ann, { field_label: 'A', field_type: 'TEXT' });
    const theirs = await define(zed, { field_label: 'Z', field_type: 'TEXT' });
    const before = await storedState(ctx.connection);
    expectError(await ctx.as(ann).post(`${PATH}/positions`).send([{ id: a.id, position: 3 }, { id: theirs.id, position: 1 }]), 400, 'bad_request', ['id']);
    expectError(await ctx.as(ann).post(`${PATH}/positions`).send([]), 400, 'validation_failed', ['body']);
    expect(await storedState(ctx.connection)).toEqual(before);
  });
});

describe('records checked against the definitions', () => {
  const custom = (name: string, value: unknown) => ({ type: 'CUSTOM', name, value });
  const withCustom = (...props: object[]) => ({ ...person('Al'), properties: [...person('Al').properties, ...props] });

  beforeEach(async () => {
    await define(ann, plan);
    await define(ann, { field_label: 'Seats', field_type: 'NUMBER' });
    await define(ann, { field_label: 'Joined', field_type: 'DATE' });
    await define(ann, { field_label: 'Terms', field_type: 'CHECKBOX' });
    await define(ann, { field_label: 'Employers', field_type: 'COMPANY' });
  });

  it('stores valid values and names without a definition as sent; a date as a JSON number is a 400 (the spec types values as strings)', async () => {
    const res = await ctx.as(ann).post('/dev/api/contacts').send(withCustom(custom('Plan', 'Pro'), custom('Seats', '12.5'), custom('Joined', '1279132200'), custom('Terms', 'on'), custom('Employers', '["5694691248963584"]'), custom('Free text', 'anything')));
    expect(res.status).toBe(200);
    expectError(await ctx.as(ann).post('/dev/api/contacts').send(withCustom(custom('Joined', 1279132200))), 400, 'validation_failed', ['properties.1.value']);
    expect(res.body.properties).toEqual(expect.arrayContaining([{ type: 'CUSTOM', name: 'Joined', value: '1279132200' }, { type: 'CUSTOM', name: 'Free text', value: 'anything' }]));
  });

  it.each([
    [custom('Plan', 'pro'), 'properties.1.value'],
    [custom('Seats', 'twelve'), 'properties.1.value'],
    [custom('Joined', '2020-01-01'), 'properties.1.value'],
    [custom('Terms', 'yes'), 'properties.1.value'],
    [custom('Employers', '[1, "x"]'), 'properties.1.value'],
  ])('refuses %p naming the property, and stores nothing', async (property, field) => {
    const before = await storedState(ctx.connection);
    const res = await ctx.as(ann).post('/dev/api/contacts').send(withCustom(property));
    expectError(res, 400, 'validation_failed', [field]);
    expect(await storedState(ctx.connection)).toEqual(before);
  });

  it('checks the values of a scope only against that scope: a company against COMPANY definitions, not CONTACT ones', async () => {
    await define(ann, { field_label: 'Tier', field_type: 'LIST', field_data: 'A;B', scope: 'COMPANY' });
    const ok = await ctx.as(ann).post('/dev/api/contacts').send({ ...company('Acme'), properties: [...company('Acme').properties, custom('Plan', 'not a plan'), custom('Tier', 'A')] });
    expect(ok.status).toBe(200);
    expectError(await ctx.as(ann).post('/dev/api/contacts').send({ ...company('Beta'), properties: [...company('Beta').properties, custom('Tier', 'C')] }), 400, 'validation_failed', ['properties.1.value']);
  });

  it('a required field: a new record needs it; a stored record without it stays editable, and cannot drop it once it has it', async () => {
    const old = await ctx.as(ann).post('/dev/api/contacts').send(person('Old'));
    await define(ann, { field_label: 'Region', field_type: 'TEXT', is_required: true });
    expectError(await ctx.as(ann).post('/dev/api/contacts').send(person('New')), 400, 'validation_failed', ['properties']);
    const edited = await ctx.as(ann).put('/dev/api/contacts/edit/lead-score').send({ id: old.body.id, lead_score: 5 });
    expect(edited.status).toBe(200);
    const made = await ctx.as(ann).post('/dev/api/contacts').send(withCustom(custom('Region', 'EU')));
    expect(made.status).toBe(200);
    const dropped = await ctx.as(ann).put('/dev/api/contacts/edit-properties').send({ id: made.body.id, properties: [custom('Region', '')] });
    expectError(dropped, 400, 'validation_failed', ['properties']);
  });

  it('changing or deleting a definition never makes stored records unreadable or unwritable', async () => {
    const made = await ctx.as(ann).post('/dev/api/contacts').send(withCustom(custom('Plan', 'Pro')));
    const [definition] = (await ctx.as(ann).get(`${PATH}/scope?scope=CONTACT`)).body;
    await ctx.as(ann).put(PATH).send({ id: definition.id, field_label: 'Plan', field_type: 'LIST', field_data: 'Gold;Silver' });
    const read = await ctx.as(ann).get(`/dev/api/contacts/${made.body.id}`);
    expect(read.status).toBe(200);
    // the stored value goes back unchanged with another change
    const back = await ctx.as(ann).put('/dev/api/contacts').send({ id: made.body.id, properties: read.body.properties, lead_score: 3 });
    expect(back.status).toBe(200);
    // a new value is checked against the new options (the issue names the property's place in the contact)
    expectError(await ctx.as(ann).put('/dev/api/contacts/edit-properties').send({ id: made.body.id, properties: [custom('Plan', 'Basic')] }), 400, 'validation_failed', ['properties.1.value']);
    expect((await ctx.as(ann).delete(`${PATH}/${definition.id}`)).status).toBe(204);
    const after = await ctx.as(ann).get(`/dev/api/contacts/${made.body.id}`);
    expect(after.body.properties).toEqual(expect.arrayContaining([{ type: 'CUSTOM', name: 'Plan', value: 'Pro' }]));
    expect((await ctx.as(ann).put('/dev/api/contacts/edit-properties').send({ id: made.body.id, properties: [custom('Plan', 'Basic')] })).status).toBe(200);
  });

  it('deal custom data is checked against DEAL definitions: dates as MM/dd/yyyy (the original\'s deal form) or epoch seconds', async () => {
    await define(ann, { field_label: 'Closed on', field_type: 'DATE', scope: 'DEAL' });
    await define(ann, { field_label: 'Stage', field_type: 'LIST', field_data: 'Early;Late', scope: 'DEAL' });
    const track = await h.defaultTrack(ann);
    const deal = await h.createDeal(ann, track, { custom_data: [{ name: 'Closed on', value: '02/29/2024' }, { name: 'Stage', value: 'Early' }, { name: 'Plan', value: 'free' }] });
    expect(deal.custom_data).toEqual([{ name: 'Closed on', value: '02/29/2024' }, { name: 'Stage', value: 'Early' }, { name: 'Plan', value: 'free' }]);
    for (const value of ['02/30/2024', '2024-02-01']) {
      expectError(await ctx.as(ann).post('/dev/api/opportunity').send(h.dealBody(ann, track, { custom_data: [{ name: 'Closed on', value }] })), 400, 'validation_failed', ['custom_data.0.value']);
    }
    expectError(await ctx.as(ann).put('/dev/api/opportunity/partial-update').send({ id: deal.id, custom_data: [{ name: 'Stage', value: 'Mid' }] }), 400, 'validation_failed', ['custom_data.0.value']);
    const stored = await h.Deal().findById(deal.id).lean();
    expect(stored?.custom_data).toEqual(deal.custom_data);
  });

  it('another account\'s definitions do not apply', async () => {
    const res = await ctx.as(zed).post('/dev/api/contacts').send(withCustom(custom('Plan', 'anything')));
    expect(res.status).toBe(200);
  });
});
