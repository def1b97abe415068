import request from 'supertest';
import { allPages, createContact, expectDeleteScopedToAccount, fetchContact, xmlOf } from './activity-helpers';
import { expectError } from './expectations';
import { setupCrmApp, type TestUser } from './setup-app';

/** Calendar events: E1–E5. */
const ctx = setupCrmApp();

const storedEvents = () => ctx.connection.collection('events').find().sort({ _id: 1 }).toArray();

let ann: TestUser;
let zed: TestUser;
beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
  zed = await ctx.user('other', 'zed@other.test');
});

const base = { title: 'Demo', start: 1_900_000_000, end: 1_900_003_600 };
type Event = { id: number } & Record<string, unknown>;

async function createEvent(user: TestUser, body: object = {}): Promise<Event> {
  const res = await ctx.as(user).post('/dev/api/events').send({ ...base, ...body });
  expect(res.status).toBe(200);
  return res.body;
}

const ids = (res: { body: Array<{ id: number }> }) => res.body.map((e) => e.id);

describe('E3: POST /dev/api/events', () => {
  it('creates an event with full contact objects and the defaults', async () => {
    const a = await createContact(ctx, ann, 'Ann');
    const res = await ctx.as(ann).post('/dev/api/events').send({ ...base, contact_ids: [String(a.id)] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      title: 'Demo',
      start: base.start,
      end: base.end,
      allDay: false,
      is_event_starred: false,
      contacts: [await fetchContact(ctx, ann, a.id)],
      created_time: expect.any(Number),
      updated_time: expect.any(Number),
    });
    expect(await storedEvents()).toEqual([expect.objectContaining({ _id: res.body.id, account: ann.account, contacts: [a.id], color: null })]);
  });

  it('stores allDay, color, starred and contacts sent as `contacts`; answers XML when asked', async () => {
    const a = await createContact(ctx, ann, 'Ann');
    const res = await ctx
      .as(ann)
      .post('/dev/api/events')
      .set('Accept', 'application/xml')
      .send({ ...base, allDay: true, color: 'red', is_event_starred: true, contacts: [a.id] });
    expect(res.status).toBe(200);
    const xml = xmlOf(res) as { event: Record<string, unknown> };
    expect(xml.event).toMatchObject({ title: 'Demo', allDay: 'true', color: 'red', is_event_starred: 'true', contacts: { id: String(a.id) } });
  });

  it.each(['red', 'yellow', 'green'])('accepts the color %s', async (color) => {
    expect((await createEvent(ann, { color })).color).toBe(color);
  });

  it.each([
    [{ ...base, title: undefined }, ['title']],
    [{ ...base, start: undefined }, ['start']],
    [{ ...base, end: undefined }, ['end']],
    [{ title: 'x' }, ['start', 'end']],
    [{ ...base, title: ' ' }, ['title']],
    [{ ...base, color: 'Red' }, ['color']],
    [{ ...base, color: 'blue' }, ['color']],
    [{ ...base, allDay: 'yes' }, ['allDay']],
    [{ ...base, start: 'noon' }, ['start']],
    [{ ...base, end: base.start - 1 }, ['end']],
    [{ ...base, where: 'office' }, ['where']],
    [{ ...base, id: 3 }, ['id']],
  ])('answers 400 naming the field (%#) and stores nothing', async (body, fields) => {
    expectError(await ctx.as(ann).post('/dev/api/events').send(body), 400, 'validation_failed', fields);
    expect(await storedEvents()).toEqual([]);
  });

  it("answers 400 for a contact of another account, or both contact fields, storing nothing", async () => {
    const theirs = await createContact(ctx, zed, 'Zed');
    expectError(await ctx.as(ann).post('/dev/api/events').send({ ...base, contact_ids: [theirs.id] }), 400, 'validation_failed', ['contact_ids']);
    expectError(await ctx.as(ann).post('/dev/api/events').send({ ...base, contact_ids: [], contacts: [] }), 400, 'validation_failed', ['contacts']);
    expect(await storedEvents()).toEqual([]);
  });

  it('answers 401 without credentials', async () => {
    expectError(await request(ctx.app).post('/dev/api/events').send(base), 401, 'unauthorized');
    expect(await storedEvents()).toEqual([]);
  });
});

describe('E4: PUT /dev/api/events', () => {
  it('replaces the sent fields; others stay', async () => {
    const a = await createContact(ctx, ann, 'Ann');
    const event = await createEvent(ann, { color: 'red', contact_ids: [a.id] });
    const res = await ctx.as(ann).put('/dev/api/events').send({ id: event.id, title: 'Moved', start: 1_900_001_000, end: 1_900_002_000 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...event, title: 'Moved', start: 1_900_001_000, end: 1_900_002_000, updated_time: expect.any(Number) });
  });

  it('clears the color with null and accepts a fetched event sent back', async () => {
    const event = await createEvent(ann, { color: 'green' });
    const res = await ctx.as(ann).put('/dev/api/events').send({ ...event, color: null });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('color');
    expect(await storedEvents()).toEqual([expect.objectContaining({ color: null, title: 'Demo' })]);
  });

  it('creates an event when the body has no id (title, start, end then required)', async () => {
    const res = await ctx.as(ann).put('/dev/api/events').send(base);
    expect(res.status).toBe(200);
    expect(await storedEvents()).toEqual([expect.objectContaining({ _id: res.body.id, title: 'Demo' })]);
    expectError(await ctx.as(ann).put('/dev/api/events').send({ title: 'x' }), 400, 'validation_failed', ['start', 'end']);
    expect(await storedEvents()).toHaveLength(1);
  });

  it('checks start ≤ end against the stored times and changes nothing when it fails', async () => {
    const event = await createEvent(ann);
    expectError(await ctx.as(ann).put('/dev/api/events').send({ id: event.id, start: base.end + 1 }), 400, 'validation_failed', ['end']);
    expect(await storedEvents()).toEqual([expect.objectContaining({ start: base.start, end: base.end })]);
  });

  it("answers 404 for an unknown or another account's event", async () => {
    const theirs = await createEvent(zed);
    expectError(await ctx.as(ann).put('/dev/api/events').send({ id: theirs.id, title: 'Mine' }), 404, 'event_not_found');
    expectError(await ctx.as(ann).put('/dev/api/events').send({ id: 999999, title: 'Mine' }), 404, 'event_not_found');
    expect(await storedEvents()).toEqual([expect.objectContaining({ title: 'Demo', account: zed.account })]);
  });

  it('concurrent updates of different fields all land', async () => {
    const event = await createEvent(ann);
    const changes = [{ title: 'T2' }, { color: 'yellow' }, { allDay: true }, { is_event_starred: true }, { end: 1_900_009_000 }];
    const results = await Promise.all(changes.map((c) => ctx.as(ann).put('/dev/api/events').send({ id: event.id, ...c })));
    expect(results.map((r) => r.status)).toEqual(changes.map(() => 200));
    expect(await storedEvents()).toEqual([
      expect.objectContaining({ title: 'T2', color: 'yellow', allDay: true, is_event_starred: true, end: 1_900_009_000, start: base.start }),
    ]);
  });
});

describe('E1: GET /dev/api/events', () => {
  it('lists the events overlapping the range (bounds inclusive), by start', async () => {
    const S = 1_900_000_000;
    const before = await createEvent(ann, { title: 'before', start: S - 200, end: S - 100 });
    const straddlesStart = await createEvent(ann, { title: 'straddles start', start: S - 50, end: S + 50 });
    const inside = await createEvent(ann, { title: 'inside', start: S + 100, end: S + 200 });
    const touchesEnd = await createEvent(ann, { title: 'touches end', start: S + 1000, end: S + 2000 });
    const around = await createEvent(ann, { title: 'around', start: S - 500, end: S + 5000 });
    const after = await createEvent(ann, { title: 'after', start: S + 1001, end: S + 1100 });
    const touchesStart = await createEvent(ann, { title: 'touches start', start: S - 10, end: S });
    await createEvent(zed, { start: S, end: S + 10 });
    const res = await ctx.as(ann).get(`/dev/api/events?start=${S}&end=${S + 1000}`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([around.id, straddlesStart.id, touchesStart.id, inside.id, touchesEnd.id]);
    expect(res.body[0].count).toBe(5);
    expect(ids(res)).not.toContain(before.id);
    expect(ids(res)).not.toContain(after.id);
    const xml = await ctx.as(ann).get(`/dev/api/events?start=${S}&end=${S + 1000}`).set('Accept', 'application/xml');
    expect((xmlOf(xml) as { events: { event: unknown[] } }).events.event).toHaveLength(5);
    expect(await allPages(ctx, ann, `/dev/api/events?start=${S}&end=${S + 1000}`, 2)).toEqual([
      [around.id, straddlesStart.id],
      [touchesStart.id, inside.id],
      [touchesEnd.id],
    ]);
  });

  it('answers 200 with an empty list when nothing overlaps', async () => {
    await createEvent(ann);
    const res = await ctx.as(ann).get('/dev/api/events?start=1&end=2');
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: [] });
  });

  it.each([
    ['', ['start', 'end']],
    ['start=1', ['end']],
    ['end=1', ['start']],
    ['start=5&end=4', ['end']],
    ['start=abc&end=4', ['start']],
    ['start=1&end=2&color=red', ['color']],
  ])('answers 400 naming the parameters for %p', async (query, fields) => {
    expectError(await ctx.as(ann).get(`/dev/api/events?${query}`), 400, 'validation_failed', fields);
  });
});

describe('E2: GET /dev/api/contacts/{contact_id}/events/sort', () => {
  it('lists the events of the contact by start; other accounts see none', async () => {
    const a = await createContact(ctx, ann, 'Ann');
    const later = await createEvent(ann, { start: 1_900_100_000, end: 1_900_100_100, contact_ids: [a.id] });
    const sooner = await createEvent(ann, { start: 1_900_000_000, end: 1_900_000_100, contact_ids: [a.id] });
    await createEvent(ann);
    const res = await ctx.as(ann).get(`/dev/api/contacts/${a.id}/events/sort`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([sooner.id, later.id]);
    expect(res.body[0]).toEqual({ ...sooner, count: 2 });
    expect((await ctx.as(zed).get(`/dev/api/contacts/${a.id}/events/sort`)).body).toEqual([]);
    expectError(await ctx.as(ann).get('/dev/api/contacts/x/events/sort'), 400, 'validation_failed', ['contact_id']);
  });
});

describe('E5: DELETE /dev/api/events/{id}', () => {
  it("deletes the event; unknown ids and other accounts' events answer 204 and stay", async () => {
    const mine = await createEvent(ann);
    const theirs = await createEvent(zed);
    await expectDeleteScopedToAccount(ctx, ann, '/dev/api/events', { mine, theirs }, async () => (await storedEvents()).map((e) => e._id));
    expectError(await ctx.as(ann).delete('/dev/api/events/0'), 400, 'validation_failed', ['id']);
  });
});
