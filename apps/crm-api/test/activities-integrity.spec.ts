import request from 'supertest';
import { createContact, expectEmpty204 } from './activity-helpers';
import { setupCrmApp, type TestUser } from './setup-app';

/** Integrity of notes, tasks and events: contact deletion, races with it, concurrent relation changes. */
const ctx = setupCrmApp();

const stored = (name: 'notes' | 'tasks' | 'events') => ctx.connection.collection(name).find().sort({ _id: 1 }).toArray();

let ann: TestUser;
let zed: TestUser;
beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
  zed = await ctx.user('other', 'zed@other.test');
});

const task = { subject: 'Call', type: 'CALL', priority_type: 'LOW', due: 1_900_000_000 };
const event = { title: 'Demo', start: 1_900_000_000, end: 1_900_000_100 };

async function ok(res: request.Test) {
  const done = await res;
  expect(done.status).toBe(200);
  return done.body as { id: number } & Record<string, unknown>;
}

async function relateAll(user: TestUser, contactIds: number[]) {
  const note = await ok(ctx.as(user).post('/dev/api/notes').send({ subject: 'S', description: 'D', contact_ids: contactIds }));
  const t = await ok(ctx.as(user).post('/dev/api/tasks').send({ ...task, contacts: contactIds }));
  const e = await ok(ctx.as(user).post('/dev/api/events').send({ ...event, contact_ids: contactIds }));
  return { note, task: t, event: e };
}

describe('deleting a contact (C5)', () => {
  it('removes its id from every note, task and event of the account; the records and other contacts stay', async () => {
    const a = await createContact(ctx, ann, 'Ann');
    const b = await createContact(ctx, ann, 'Bob');
    const records = await relateAll(ann, [a.id, b.id]);
    const onlyA = await relateAll(ann, [a.id]);

    expectEmpty204(await ctx.as(ann).delete(`/dev/api/contacts/${a.id}`));

    for (const name of ['notes', 'tasks', 'events'] as const) {
      expect((await stored(name)).map((r) => r.contacts)).toEqual([[b.id], []]);
    }
    const note = (await ctx.as(ann).get(`/dev/api/contacts/${b.id}/notes`)).body;
    expect(note).toEqual([expect.objectContaining({ id: records.note.id, contacts: [String(b.id)] })]);
    const t = (await ctx.as(ann).get(`/dev/api/tasks/${onlyA.task.id}`)).body;
    expect(t.contacts).toEqual([]);
    const events = (await ctx.as(ann).get(`/dev/api/events?start=0&end=2000000000`)).body;
    expect(events.map((e: { contacts: Array<{ id: number }> }) => e.contacts.map((c) => c.id))).toEqual([[b.id], []]);
    for (const path of [`/dev/api/contacts/${a.id}/notes`, `/dev/api/contacts/${a.id}/tasks/sort`, `/dev/api/contacts/${a.id}/events/sort`]) {
      expect((await ctx.as(ann).get(path)).body).toEqual([]);
    }
  });

  it("leaves another account's records alone", async () => {
    const mine = await createContact(ctx, ann, 'Ann');
    const theirs = await createContact(ctx, zed, 'Zed');
    await relateAll(zed, [theirs.id]);
    expectEmpty204(await ctx.as(ann).delete(`/dev/api/contacts/${theirs.id}`)); // not ann's: nothing happens
    expectEmpty204(await ctx.as(ann).delete(`/dev/api/contacts/${mine.id}`));
    for (const name of ['notes', 'tasks', 'events'] as const) expect((await stored(name)).map((r) => r.contacts)).toEqual([[theirs.id]]);
  });

  it('several contacts of one record deleted at once all leave it (no removal lost)', async () => {
    const people = [];
    for (const name of ['A', 'B', 'C', 'D', 'E']) people.push(await createContact(ctx, ann, name));
    const keep = await createContact(ctx, ann, 'Keep');
    await relateAll(ann, [...people.map((p) => p.id), keep.id]);
    const results = await Promise.all(people.map((p) => ctx.as(ann).delete(`/dev/api/contacts/${p.id}`)));
    expect(results.map((r) => r.status)).toEqual(people.map(() => 204));
    for (const name of ['notes', 'tasks', 'events'] as const) expect((await stored(name)).map((r) => r.contacts)).toEqual([[keep.id]]);
  });

  it.each([
    ['Note', '/dev/api/notes', { subject: 'S', description: 'D' }, 'contact_ids'],
    ['Task', '/dev/api/tasks', task, 'contacts'],
    ['Event', '/dev/api/events', event, 'contact_ids'],
  ] as const)('a %s written while its contact is deleted does not keep the id', async (model, path, body, field) => {
    const a = await createContact(ctx, ann, 'Ann');
    const b = await createContact(ctx, ann, 'Bob');
    // the contact is deleted after the create checked it and before it writes
    const Model = ctx.connection.models[model];
    const original = Model.create.bind(Model);
    const spy = jest.spyOn(Model, 'create').mockImplementationOnce((async (...args: unknown[]) => {
      expectEmpty204(await ctx.as(ann).delete(`/dev/api/contacts/${a.id}`));
      return (original as (...a: unknown[]) => unknown)(...args);
    }) as never);
    try {
      const created = await ok(ctx.as(ann).post(path).send({ ...body, [field]: [a.id, b.id] }));
      const contacts = created.contacts as Array<string | { id: number }>;
      expect(contacts.map((c) => (typeof c === 'string' ? Number(c) : c.id))).toEqual([b.id]);
    } finally {
      spy.mockRestore();
    }
    const name = `${model.toLowerCase()}s` as 'notes' | 'tasks' | 'events';
    expect((await stored(name)).map((r) => r.contacts)).toEqual([[b.id]]);
  });
});

describe('concurrent relation changes', () => {
  it('N4 for several contacts of one note at once removes every relation', async () => {
    const people = [];
    for (const name of ['A', 'B', 'C', 'D']) people.push(await createContact(ctx, ann, name));
    const { note } = await relateAll(ann, people.map((p) => p.id));
    const results = await Promise.all(people.slice(0, 3).map((p) => ctx.as(ann).delete(`/dev/api/contacts/${p.id}/notes/${note.id}`)));
    expect(results.map((r) => r.status)).toEqual([204, 204, 204]);
    expect((await stored('notes')).map((r) => r.contacts)).toEqual([[people[3].id]]);
  });
});

describe('the route table', () => {
  it('/openapi.json describes every notes, tasks and events route', async () => {
    const doc = (await request(ctx.app).get('/openapi.json')).body as { paths: Record<string, Record<string, { security?: unknown }>> };
    const described = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`));
    const expected = [
      'post /dev/api/notes',
      'put /dev/api/notes',
      'post /dev/api/contacts/email/note/add',
      'get /dev/api/contacts/{contact_id}/notes',
      'delete /dev/api/contacts/{contact_id}/notes/{note_id}',
      'get /dev/api/opportunity/{id}/notes',
      'post /dev/api/opportunity/deals/notes',
      'get /dev/api/tasks',
      'get /dev/api/tasks/all',
      'get /dev/api/tasks/pending/{days}',
      'get /dev/api/tasks/my/tasks',
      'get /dev/api/tasks/based',
      'get /dev/api/tasks/{id}',
      'post /dev/api/tasks',
      'post /dev/api/tasks/email/{email}',
      'put /dev/api/tasks',
      'put /dev/api/tasks/partial-update',
      'delete /dev/api/tasks/{id}',
      'get /dev/api/contacts/{contact_id}/tasks/sort',
      'get /dev/api/events',
      'get /dev/api/contacts/{contact_id}/events/sort',
      'post /dev/api/events',
      'put /dev/api/events',
      'delete /dev/api/events/{id}',
    ];
    for (const route of expected) expect(described).toContain(route);
  });
});
