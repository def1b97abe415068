import { MAX_PROPERTIES, PROPERTY_TEXT_MAX, TAG_MAX } from '../src/contacts/contact-rules';
import { parseXml } from '@lib/validation';
import { person, setupCrmApp, type TestUser } from './setup-app';

/** The documented bounds of a stored contact hold for the stored document, whatever runs at once. */
const ctx = setupCrmApp();
let ann: TestUser;
let alId: number;

const range = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const c7 = (tags: string[]) => ctx.as(ann).post('/dev/api/contacts/email/tags/add').type('form').send({ email: 'al@x.test', tags: JSON.stringify(tags) });
const editTags = (tags: string[]) => ctx.as(ann).put('/dev/api/contacts/edit/tags').send({ id: alId, tags });
const deleteTags = (tags: string[]) => ctx.as(ann).post('/dev/api/contacts/email/tags/delete').type('form').send({ email: 'al@x.test', tags: JSON.stringify(tags) });
const addProperty = (name: string, value: string) => ctx.as(ann).post('/dev/api/contacts/add/property?email=al%40x.test').send({ type: 'CUSTOM', name, value });

async function stored() {
  const doc = await ctx.Contact.findById(alId).lean();
  return { tags: Object.keys(doc!.tag_times), count: (doc as { tag_count?: number }).tag_count, properties: doc!.properties };
}

beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
  const res = await ctx.as(ann).post('/dev/api/contacts').send(person('Al', 'al@x.test'));
  expect(res.status).toBe(200);
  alId = res.body.id;
});

describe(`at most ${TAG_MAX} tags per stored contact, under concurrency`, () => {
  it('200 parallel single-tag C7 adds: exactly 100 stored, 100 answered 204 and the rest 400 naming tags', async () => {
    const responses = await Promise.all(range(200, 'tag').map((tag) => c7([tag])));
    const ok = responses.filter((r) => r.status === 204);
    const refused = responses.filter((r) => r.status === 400);
    expect(ok).toHaveLength(TAG_MAX);
    expect(refused).toHaveLength(100);
    for (const r of refused) expect(r.body.error.fields).toEqual([{ field: 'tags', message: expect.stringContaining(`at most ${TAG_MAX} tags`) }]);
    const after = await stored();
    expect(after.tags).toHaveLength(TAG_MAX);
    expect(after.count).toBe(TAG_MAX);
  });

  it('parallel edit/tags adds of 10 tags each never store more than 100, and the count matches the tags', async () => {
    const responses = await Promise.all(range(30, 'g').map((prefix) => editTags(range(10, `${prefix}x`))));
    // requests racing for the last places may each have added some of their tags before it filled: 400 says so
    for (const r of responses) expect([200, 400]).toContain(r.status);
    expect(responses.some((r) => r.status === 400)).toBe(true);
    const after = await stored();
    expect(after.tags.length).toBeLessThanOrEqual(TAG_MAX);
    expect(after.tags.length).toBeGreaterThanOrEqual(TAG_MAX - 9);
    expect(after.count).toBe(after.tags.length);
  });

  it('a request that cannot fit is refused before anything is written', async () => {
    expect((await c7(range(95, 'a'))).status).toBe(204);
    const res = await c7(range(10, 'b'));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('tags: a contact holds at most 100 tags (it holds 95)');
    expect((await stored()).tags).toHaveLength(95);
    // tags already there take no place
    expect((await c7([...range(5, 'a'), ...range(5, 'c')])).status).toBe(204);
    expect((await stored()).count).toBe(100);
  });

  it('parallel adds and deletes keep tag_count equal to the stored tags, so freed places can be used again', async () => {
    expect((await c7(range(100, 'a'))).status).toBe(204);
    await Promise.all([...range(50, 'a').map((tag) => deleteTags([tag])), ...range(50, 'b').map((tag) => c7([tag]))]);
    const after = await stored();
    expect(after.count).toBe(after.tags.length);
    expect(after.tags.length).toBeLessThanOrEqual(TAG_MAX);
    expect((await deleteTags(range(100, 'a'))).status).toBe(204);
    const emptied = await stored();
    expect(emptied.count).toBe(emptied.tags.length);
    expect(emptied.tags.every((tag) => tag.startsWith('b'))).toBe(true);
  });

  it('a whole-contact update sets the count with the tags', async () => {
    const res = await ctx.as(ann).put('/dev/api/contacts').send({ id: alId, tags: ['x', 'y', 'x'] });
    expect(res.status).toBe(200);
    expect(await stored()).toMatchObject({ tags: ['x', 'y'], count: 2 });
  });

  it('a contact stored before tag_count existed gets it counted on its first tag call', async () => {
    await ctx.Contact.updateOne({ _id: alId }, { $set: { tag_times: Object.fromEntries(range(99, 'old').map((t) => [t, 1])) }, $unset: { tag_count: '' } });
    const responses = await Promise.all([c7(['n1']), c7(['n2'])]);
    expect(responses.map((r) => r.status).sort()).toEqual([204, 400]);
    expect(await stored()).toMatchObject({ count: 100 });
    expect((await stored()).tags).toHaveLength(100);
  });
});

describe(`at most ${MAX_PROPERTIES} properties and ${PROPERTY_TEXT_MAX} characters of property text per stored contact`, () => {
  it('parallel C11 add/property calls of new names never store more than the limit', async () => {
    // Al has first_name and email
    const names = range(60, 'p');
    const responses = await Promise.all(names.map((name) => addProperty(name, 'v')));
    // edits of one contact take turns (withLease); on a loaded machine the last in line can wait
    // past LEASE_WAIT_MS and get a 409 asking to try again, which a client does
    for (const [i, r] of responses.entries()) {
      if (r.status !== 409) continue;
      expect(r.body.error.message).toBe(`Contact ${alId} is being changed by other requests; try again`);
      responses[i] = await addProperty(names[i], 'v');
    }
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(MAX_PROPERTIES - 2);
    expect(statuses.filter((s) => s === 400)).toHaveLength(60 - (MAX_PROPERTIES - 2));
    for (const r of responses.filter((x) => x.status === 400)) expect(r.body.error.message).toContain(`at most ${MAX_PROPERTIES} properties`);
    expect((await stored()).properties).toHaveLength(MAX_PROPERTIES);
  });

  it('property text is bounded for the contact, not per call: edit-properties and add/property refuse what would pass it', async () => {
    expect((await addProperty('bio', 'x'.repeat(PROPERTY_TEXT_MAX - 1_000))).status).toBe(200);
    const more = await addProperty('notes', 'y'.repeat(1_000));
    expect(more.status).toBe(400);
    expect(more.body.error.fields).toEqual([{ field: 'properties', message: expect.stringContaining(`at most ${PROPERTY_TEXT_MAX} characters`) }]);
    const edit = await ctx.as(ann).put('/dev/api/contacts/edit-properties').send({ id: alId, properties: [{ type: 'CUSTOM', name: 'notes', value: 'y'.repeat(1_000) }] });
    expect(edit.status).toBe(400);
    // replacing the long one with a short one frees the room
    expect((await addProperty('bio', 'short')).status).toBe(200);
    expect((await addProperty('notes', 'y'.repeat(1_000))).status).toBe(200);
    expect((await stored()).properties.map((p) => p.name)).toEqual(['first_name', 'email', 'bio', 'notes']);
  });

  it(`a contact with a 10,000-character value and ${PROPERTY_TEXT_MAX} characters of property text is stored and read back whole, JSON and XML`, async () => {
    const background = 'Met at the 2024 fair & <b>followed up</b> — “warm”\n'.repeat(200).slice(0, 10_000);
    type Sent = { type: string; name: string; subtype?: string; value: string };
    const fixed: Sent[] = [
      { type: 'SYSTEM', name: 'first_name', value: 'Bo' },
      { type: 'SYSTEM', name: 'email', subtype: 'work', value: 'bo@x.test' },
      { type: 'CUSTOM', name: 'background', value: background },
      { type: 'SYSTEM', name: 'address', subtype: 'office', value: JSON.stringify({ address: '1 Long Street\nSuite 5', city: 'Perth', country: 'AU' }) },
    ];
    const used = fixed.reduce((n, p) => n + p.name.length + (p.subtype?.length ?? 0) + p.value.length, 0);
    // the rest of the room in five custom fields of `€` (3 bytes each as sent)
    const names = ['n1', 'n2', 'n3', 'n4', 'n5'];
    const room = PROPERTY_TEXT_MAX - used - names.join('').length;
    const fill = names.map((name, i) => ({ type: 'CUSTOM', name, value: '€'.repeat(Math.floor(room / 5) + (i < room % 5 ? 1 : 0)) }));
    const properties: Sent[] = [...fixed, ...fill];
    expect(properties.reduce((n, p) => n + p.name.length + (p.subtype?.length ?? 0) + p.value.length, 0)).toBe(PROPERTY_TEXT_MAX);
    const created = await ctx.as(ann).post('/dev/api/contacts').send({ properties });
    expect(created.status).toBe(200);
    const json = await ctx.as(ann).get(`/dev/api/contacts/${created.body.id}`);
    expect(json.body.properties).toEqual(properties);
    const xml = await ctx.as(ann).get(`/dev/api/contacts/${created.body.id}`).set('Accept', 'application/xml');
    const field = (element: { children: Array<{ name: string; text: string }> }, name: string) => element.children.find((c) => c.name === name)?.text;
    const read = parseXml(xml.text).children.filter((c) => c.name === 'properties');
    expect(read.map((p) => [field(p, 'name'), field(p, 'value')])).toEqual(properties.map((p) => [p.name, p.value]));
    expect((await ctx.Contact.findById(created.body.id).lean())!.properties.map((p) => p.value)).toEqual(properties.map((p) => p.value));
  });

  it('one character more, in one body or added to the stored ones, or a value over the limit alone, is a 400 naming the field; nothing stored', async () => {
    const over = [{ type: 'SYSTEM', name: 'first_name', value: 'Cy' }, { type: 'CUSTOM', name: 'bio', value: 'x'.repeat(PROPERTY_TEXT_MAX - 'first_name'.length - 'Cy'.length - 'bio'.length + 1) }];
    const create = await ctx.as(ann).post('/dev/api/contacts').send({ properties: over });
    expect(create.status).toBe(400);
    expect(create.body.error.fields).toEqual([{ field: 'properties', message: expect.stringContaining(`at most ${PROPERTY_TEXT_MAX} characters of names, subtypes and values together (this would make ${PROPERTY_TEXT_MAX + 1})`) }]);
    const tooLong = await ctx.as(ann).post('/dev/api/contacts').send({ properties: [over[0], { type: 'CUSTOM', name: 'bio', value: 'x'.repeat(PROPERTY_TEXT_MAX + 1) }] });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.fields.map((f: { field: string }) => f.field)).toEqual(['properties.1.value']);
    expect(await ctx.Contact.countDocuments()).toBe(1);
    // Al holds some text already: a value filling the rest of the room exactly fits, one more character does not
    const before = (await stored()).properties;
    const held = before.reduce((n, p) => n + p.name.length + (p.subtype?.length ?? 0) + (p.value?.length ?? 0), 0);
    const rest = PROPERTY_TEXT_MAX - held - 'bio'.length;
    expect((await addProperty('bio', 'y'.repeat(rest + 1))).status).toBe(400);
    expect((await stored()).properties).toEqual(before);
    expect((await addProperty('bio', 'y'.repeat(rest))).status).toBe(200);
  });

  it('create and update refuse more than the limit in one body', async () => {
    const props = range(MAX_PROPERTIES + 1, 'p').map((name) => ({ type: 'CUSTOM', name, value: 'v' }));
    const create = await ctx.as(ann).post('/dev/api/contacts').send(person('Bo', 'bo@x.test', { properties: [{ type: 'SYSTEM', name: 'first_name', value: 'Bo' }, ...props] }));
    expect(create.status).toBe(400);
    expect(create.body.error.fields[0].field).toBe('properties');
    expect(await ctx.Contact.countDocuments({ emails: 'bo@x.test' })).toBe(0);
  });
});
