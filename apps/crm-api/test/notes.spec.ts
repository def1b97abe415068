import request from 'supertest';
import { allPages, createContact, expectEmpty204, xmlOf } from './activity-helpers';
import { expectError } from './expectations';
import { setupCrmApp, type TestUser } from './setup-app';

/** Notes: N1–N4, PUT /dev/api/notes, notes on deals. */
const ctx = setupCrmApp();

const Note = () => ctx.connection.collection('notes');
const Deals = () => ctx.connection.collection<{ _id: number; account: number; name: string }>('deals');
const storedNotes = () => Note().find().sort({ _id: 1 }).toArray();

let ann: TestUser;
let zed: TestUser;
beforeEach(async () => {
  await Deals().deleteMany({});
  ann = await ctx.user('acme', 'ann@acme.test');
  zed = await ctx.user('other', 'zed@other.test');
});

async function createNote(user: TestUser, body: object) {
  const res = await ctx.as(user).post('/dev/api/notes').send(body);
  expect(res.status).toBe(200);
  return res.body as { id: number; contacts: string[] } & Record<string, unknown>;
}

describe('N1: POST /dev/api/notes', () => {
  it('creates a note related to the listed contacts (ids as strings or numbers) and returns it', async () => {
    const a = await createContact(ctx, ann, 'Ann');
    const b = await createContact(ctx, ann, 'Bob');
    const before = Math.floor(Date.now() / 1000);
    const res = await ctx.as(ann).post('/dev/api/notes').send({ subject: 'Call', description: 'Talked about Q3', contact_ids: [String(a.id), b.id, a.id] });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      id: expect.any(Number),
      created_time: expect.any(Number),
      updated_time: expect.any(Number),
      subject: 'Call',
      description: 'Talked about Q3',
      contacts: [String(a.id), String(b.id)],
      owner_id: ann.id,
      entity_type: 'note',
    });
    expect(res.body.created_time).toBeGreaterThanOrEqual(before);
    const [stored] = await storedNotes();
    expect(stored).toMatchObject({ _id: res.body.id, account: ann.account, subject: 'Call', contacts: [a.id, b.id], deals: [] });
  });

  it('creates a note without contacts', async () => {
    const note = await createNote(ann, { subject: 'S', description: 'D' });
    expect(note.contacts).toEqual([]);
  });

  it('accepts the related contacts under `contacts` too (as responses name them)', async () => {
    const a = await createContact(ctx, ann, 'Ann');
    const note = await createNote(ann, { subject: 'S', description: 'D', contacts: [String(a.id)] });
    expect(note.contacts).toEqual([String(a.id)]);
  });

  it('answers XML with root note when asked', async () => {
    const a = await createContact(ctx, ann, 'Ann');
    const res = await ctx.as(ann).post('/dev/api/notes').set('Accept', 'application/xml').send({ subject: 'S', description: 'D', contact_ids: [a.id] });
    expect(res.status).toBe(200);
    expect(xmlOf(res)).toEqual({
      note: expect.objectContaining({ subject: 'S', description: 'D', contacts: String(a.id), entity_type: 'note' }),
    });
  });

  it.each([
    [{ description: 'D' }, ['subject']],
    [{ subject: 'S' }, ['description']],
    [{ subject: '   ', description: 'D' }, ['subject']],
    [{ subject: 5, description: 'D' }, ['subject']],
    [{ subject: 'S', description: 'D', colour: 'red' }, ['colour']],
    [{ subject: 'S', description: 'D', contact_ids: 'x' }, ['contact_ids']],
    [{ subject: 'S', description: 'D', contact_ids: ['abc'] }, ['contact_ids.0']],
    [{ subject: 'S', description: 'D', $where: '1' }, ['$where']],
  ])('answers 400 naming the field for %p and stores nothing', async (body, fields) => {
    const res = await ctx.as(ann).post('/dev/api/notes').send(body);
    expect(res.status).toBe(400);
    expect(res.body.error.fields.map((f: { field: string }) => f.field)).toEqual(fields);
    expect(await storedNotes()).toEqual([]);
  });

  it('refuses an id on create', async () => {
    expectError(await ctx.as(ann).post('/dev/api/notes').send({ id: 5, subject: 'S', description: 'D' }), 400, 'validation_failed', ['id']);
    expect(await storedNotes()).toEqual([]);
  });

  it('refuses contact_ids and contacts together', async () => {
    const a = await createContact(ctx, ann, 'Ann');
    const res = await ctx.as(ann).post('/dev/api/notes').send({ subject: 'S', description: 'D', contact_ids: [a.id], contacts: [a.id] });
    expectError(res, 400, 'validation_failed', ['contacts']);
    expect(await storedNotes()).toEqual([]);
  });

  it("answers 400 naming unknown and other accounts' contact ids, and stores nothing", async () => {
    const mine = await createContact(ctx, ann, 'Ann');
    const theirs = await createContact(ctx, zed, 'Zed');
    const res = await ctx.as(ann).post('/dev/api/notes').send({ subject: 'S', description: 'D', contact_ids: [mine.id, theirs.id, 999999] });
    expectError(res, 400, 'validation_failed', ['contact_ids']);
    expect(res.body.error.message).toContain(`${theirs.id}, 999999`);
    expect(res.body.error.message).not.toContain(`(${mine.id}`);
    expect(await storedNotes()).toEqual([]);
  });

  it('answers 401 without credentials and stores nothing', async () => {
    const res = await request(ctx.app).post('/dev/api/notes').send({ subject: 'S', description: 'D' });
    expectError(res, 401, 'unauthorized');
    expect(await storedNotes()).toEqual([]);
  });
});

describe('N2: POST /dev/api/contacts/email/note/add (form call)', () => {
  it('adds a note to the contact with the email and answers 204', async () => {
    const a = await createContact(ctx, ann, 'Ann', 'ann@x.test');
    const res = await ctx
      .as(ann)
      .post('/dev/api/contacts/email/note/add')
      .type('form')
      .send({ email: 'ann@x.test', note: JSON.stringify({ subject: 'Met', description: 'At the fair' }) });
    expectEmpty204(res);
    const [stored] = await storedNotes();
    expect(stored).toMatchObject({ account: ann.account, subject: 'Met', description: 'At the fair', contacts: [a.id] });
    const listed = await ctx.as(ann).get(`/dev/api/contacts/${a.id}/notes`);
    expect(listed.body).toEqual([expect.objectContaining({ subject: 'Met', contacts: [String(a.id)], count: 1 })]);
  });

  it('takes the same fields as a JSON body', async () => {
    await createContact(ctx, ann, 'Ann', 'ann@x.test');
    expectEmpty204(await ctx.as(ann).post('/dev/api/contacts/email/note/add').send({ email: 'ann@x.test', note: { subject: 'S', description: 'D' } }));
    expect(await storedNotes()).toHaveLength(1);
  });

  it("answers 400 and creates nothing when no contact of the account has the email (case-sensitive, other accounts' too)", async () => {
    await createContact(ctx, ann, 'Ann', 'ann@x.test');
    await createContact(ctx, zed, 'Zed', 'zed@x.test');
    for (const email of ['nobody@x.test', 'Ann@x.test', 'zed@x.test']) {
      const res = await ctx.as(ann).post('/dev/api/contacts/email/note/add').type('form').send({ email, note: '{"subject":"S","description":"D"}' });
      expectError(res, 400, 'bad_request', ['email']);
      expect(res.body.error.message).toContain(email);
    }
    expect(await storedNotes()).toEqual([]);
  });

  it.each([
    [{ email: 'ann@x.test', note: '{"subject":"S"' }, 'note'],
    [{ email: 'ann@x.test', note: '{"subject":"S"}' }, 'note.description'],
    [{ email: 'ann@x.test', note: '{"subject":"S","description":"D","x":1}' }, 'note.x'],
    [{ email: 'ann@x.test' }, 'note'],
    [{ note: '{"subject":"S","description":"D"}' }, 'email'],
  ])('answers 400 naming %p → %s', async (form, field) => {
    await createContact(ctx, ann, 'Ann', 'ann@x.test');
    const res = await ctx.as(ann).post('/dev/api/contacts/email/note/add').type('form').send(form);
    expect(res.status).toBe(400);
    expect(res.body.error.fields.map((f: { field: string }) => f.field)).toContain(field);
    expect(await storedNotes()).toEqual([]);
  });
});

describe('N3: GET /dev/api/contacts/{contact_id}/notes', () => {
  it('lists the notes of the contact oldest first, count on the first item, as JSON and XML', async () => {
    const a = await createContact(ctx, ann, 'Ann');
    const b = await createContact(ctx, ann, 'Bob');
    const n1 = await createNote(ann, { subject: 'one', description: 'D', contact_ids: [a.id] });
    await createNote(ann, { subject: 'bob only', description: 'D', contact_ids: [b.id] });
    const n3 = await createNote(ann, { subject: 'three', description: 'D', contact_ids: [b.id, a.id] });
    const res = await ctx.as(ann).get(`/dev/api/contacts/${a.id}/notes`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { ...n1, count: 2 },
      { ...n3, contacts: [String(b.id), String(a.id)] },
    ]);
    const xml = await ctx.as(ann).get(`/dev/api/contacts/${a.id}/notes`).set('Accept', 'application/xml');
    expect(xml.status).toBe(200);
    const notes = (xmlOf(xml) as { collection: { note: Array<Record<string, unknown>> } }).collection.note;
    expect(notes.map((n) => n.subject)).toEqual(['one', 'three']);
    expect(notes[1].contacts).toEqual([String(b.id), String(a.id)]);
  });

  it('answers 200 with an empty list for a contact without notes, an unknown id, or another account', async () => {
    const a = await createContact(ctx, ann, 'Ann');
    const theirs = await createContact(ctx, zed, 'Zed');
    await createNote(zed, { subject: 'secret', description: 'D', contact_ids: [theirs.id] });
    for (const id of [a.id, 999999, theirs.id]) {
      const res = await ctx.as(ann).get(`/dev/api/contacts/${id}/notes`);
      expect({ id, status: res.status, body: res.body }).toEqual({ id, status: 200, body: [] });
    }
  });

  it('pages with page_size and cursor, covering every note once', async () => {
    const a = await createContact(ctx, ann, 'Ann');
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createNote(ann, { subject: `n${i}`, description: 'D', contact_ids: [a.id] })).id);
    const pages = await allPages(ctx, ann, `/dev/api/contacts/${a.id}/notes`, 2);
    expect(pages).toEqual([ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)]);
  });

  it('answers 400 for a bad id, page_size or cursor', async () => {
    expectError(await ctx.as(ann).get('/dev/api/contacts/abc/notes'), 400, 'validation_failed', ['contact_id']);
    expectError(await ctx.as(ann).get('/dev/api/contacts/1/notes?page_size=0'), 400, 'validation_failed', ['page_size']);
    expectError(await ctx.as(ann).get('/dev/api/contacts/1/notes?page_size=201'), 400, 'validation_failed', ['page_size']);
    expectError(await ctx.as(ann).get('/dev/api/contacts/1/notes?cursor=abc.def'), 400, 'invalid_cursor', ['cursor']);
  });

  it('refuses a cursor of another contact', async () => {
    const a = await createContact(ctx, ann, 'Ann');
    const b = await createContact(ctx, ann, 'Bob');
    for (let i = 0; i < 2; i++) await createNote(ann, { subject: `n${i}`, description: 'D', contact_ids: [a.id, b.id] });
    const first = await ctx.as(ann).get(`/dev/api/contacts/${a.id}/notes?page_size=1`);
    const cursor = first.body[0].cursor;
    expect(cursor).toEqual(expect.any(String));
    expectError(await ctx.as(ann).get(`/dev/api/contacts/${b.id}/notes?cursor=${cursor}`), 400, 'invalid_cursor', ['cursor']);
  });
});

describe('N4: DELETE /dev/api/contacts/{contact_id}/notes/{note_id}', () => {
  it('removes only the relation: the note stays, with its other contacts', async () => {
    const a = await createContact(ctx, ann, 'Ann');
    const b = await createContact(ctx, ann, 'Bob');
    const note = await createNote(ann, { subject: 'S', description: 'D', contact_ids: [a.id, b.id] });
    expectEmpty204(await ctx.as(ann).delete(`/dev/api/contacts/${a.id}/notes/${note.id}`));
    expect(await storedNotes()).toEqual([expect.objectContaining({ _id: note.id, contacts: [b.id] })]);
    expect((await ctx.as(ann).get(`/dev/api/contacts/${a.id}/notes`)).body).toEqual([]);
    expect((await ctx.as(ann).get(`/dev/api/contacts/${b.id}/notes`)).body).toHaveLength(1);
    // again: still 204, nothing changes
    expectEmpty204(await ctx.as(ann).delete(`/dev/api/contacts/${a.id}/notes/${note.id}`));
    expect(await storedNotes()).toEqual([expect.objectContaining({ _id: note.id, contacts: [b.id] })]);
  });

  it("cannot touch another account's note", async () => {
    const theirs = await createContact(ctx, zed, 'Zed');
    const note = await createNote(zed, { subject: 'S', description: 'D', contact_ids: [theirs.id] });
    expectEmpty204(await ctx.as(ann).delete(`/dev/api/contacts/${theirs.id}/notes/${note.id}`));
    expect(await storedNotes()).toEqual([expect.objectContaining({ _id: note.id, contacts: [theirs.id] })]);
  });

  it('answers 400 for malformed ids', async () => {
    expectError(await ctx.as(ann).delete('/dev/api/contacts/1/notes/x'), 400, 'validation_failed', ['note_id']);
    expectError(await ctx.as(ann).delete('/dev/api/contacts/0/notes/1'), 400, 'validation_failed', ['contact_id']);
  });
});

describe('PUT /dev/api/notes', () => {
  it('replaces the sent fields only; the relations as a whole list', async () => {
    const a = await createContact(ctx, ann, 'Ann');
    const b = await createContact(ctx, ann, 'Bob');
    const note = await createNote(ann, { subject: 'S', description: 'D', contact_ids: [a.id] });
    const res = await ctx.as(ann).put('/dev/api/notes').send({ id: note.id, subject: 'New', contact_ids: [b.id] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...note, subject: 'New', contacts: [String(b.id)], updated_time: expect.any(Number) });
    expect(await storedNotes()).toEqual([expect.objectContaining({ subject: 'New', description: 'D', contacts: [b.id] })]);
  });

  it('accepts a fetched note sent back unchanged', async () => {
    const a = await createContact(ctx, ann, 'Ann');
    const note = await createNote(ann, { subject: 'S', description: 'D', contact_ids: [a.id] });
    const res = await ctx.as(ann).put('/dev/api/notes').send(note);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...note, updated_time: expect.any(Number) });
  });

  it("answers 404 for an unknown or another account's note and changes nothing", async () => {
    const theirs = await createNote(zed, { subject: 'S', description: 'D' });
    expectError(await ctx.as(ann).put('/dev/api/notes').send({ id: theirs.id, subject: 'X' }), 404, 'note_not_found');
    expectError(await ctx.as(ann).put('/dev/api/notes').send({ id: 999999, subject: 'X' }), 404, 'note_not_found');
    expect(await storedNotes()).toEqual([expect.objectContaining({ subject: 'S' })]);
  });

  it('answers 400 without id, with an empty subject, or naming a contact of another account', async () => {
    const note = await createNote(ann, { subject: 'S', description: 'D' });
    const theirs = await createContact(ctx, zed, 'Zed');
    expectError(await ctx.as(ann).put('/dev/api/notes').send({ subject: 'X' }), 400, 'validation_failed', ['id']);
    expectError(await ctx.as(ann).put('/dev/api/notes').send({ id: note.id, subject: '' }), 400, 'validation_failed', ['subject']);
    expectError(await ctx.as(ann).put('/dev/api/notes').send({ id: note.id, contact_ids: [theirs.id] }), 400, 'validation_failed', ['contact_ids']);
    expect(await storedNotes()).toEqual([expect.objectContaining({ subject: 'S', contacts: [] })]);
  });
});

describe('notes on deals', () => {
  beforeEach(async () => {
    await Deals().insertMany([
      { _id: 11, account: ann.account, name: 'Big deal' },
      { _id: 12, account: ann.account, name: 'Small deal' },
      { _id: 21, account: zed.account, name: 'Their deal' },
    ]);
  });

  it('POST /dev/api/opportunity/deals/notes creates a note on the deals; GET /dev/api/opportunity/{id}/notes lists them', async () => {
    const a = await createContact(ctx, ann, 'Ann');
    const res = await ctx.as(ann).post('/dev/api/opportunity/deals/notes').send({ subject: 'Pricing', description: 'Sent', deal_ids: ['11', 12], contact_ids: [a.id] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      created_time: expect.any(Number),
      updated_time: expect.any(Number),
      subject: 'Pricing',
      description: 'Sent',
      contacts: [String(a.id)],
      deal_ids: ['11', '12'],
      owner_id: ann.id,
      entity_type: 'note',
    });
    await createNote(ann, { subject: 'other', description: 'D' });
    const listed = await ctx.as(ann).get('/dev/api/opportunity/11/notes');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([{ ...res.body, count: 1 }]);
    expect((await ctx.as(ann).get('/dev/api/opportunity/12/notes')).body).toHaveLength(1);
    expect((await ctx.as(zed).get('/dev/api/opportunity/11/notes')).body).toEqual([]);
  });

  it("answers 400 for an unknown or another account's deal, or no deal, and stores nothing", async () => {
    for (const deal_ids of [[11, 99], [21], []]) {
      const res = await ctx.as(ann).post('/dev/api/opportunity/deals/notes').send({ subject: 'S', description: 'D', deal_ids });
      expectError(res, 400, 'validation_failed', ['deal_ids']);
    }
    expectError(await ctx.as(ann).post('/dev/api/opportunity/deals/notes').send({ subject: 'S', description: 'D' }), 400, 'validation_failed', ['deal_ids']);
    expect(await storedNotes()).toEqual([]);
  });

  it('PUT /dev/api/notes can relate a note to deals of the account only', async () => {
    const note = await createNote(ann, { subject: 'S', description: 'D' });
    expectError(await ctx.as(ann).put('/dev/api/notes').send({ id: note.id, deal_ids: [21] }), 400, 'validation_failed', ['deal_ids']);
    const res = await ctx.as(ann).put('/dev/api/notes').send({ id: note.id, deal_ids: [12] });
    expect(res.status).toBe(200);
    expect(res.body.deal_ids).toEqual(['12']);
    expect((await ctx.as(ann).get('/dev/api/opportunity/12/notes')).body.map((n: { id: number }) => n.id)).toEqual([note.id]);
  });

  it('noteRepository.removeDeals (for the deal delete paths) takes the deal ids out of the notes of that account only', async () => {
    const both = (await ctx.as(ann).post('/dev/api/opportunity/deals/notes').send({ subject: 'S', description: 'D', deal_ids: [11, 12] })).body;
    const theirs = (await ctx.as(zed).post('/dev/api/opportunity/deals/notes').send({ subject: 'S', description: 'D', deal_ids: [21] })).body;
    await ctx.storeOf(ann).notes.removeDeals([11]);
    await ctx.storeOf(ann).notes.removeDeals([21]);
    expect((await storedNotes()).map((n) => [n._id, n.deals])).toEqual([
      [both.id, [12]],
      [theirs.id, [21]],
    ]);
    expect((await ctx.as(ann).get('/dev/api/opportunity/11/notes')).body).toEqual([]);
  });
});
