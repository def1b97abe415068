import request from 'supertest';
import { allPages, createContact, expectDeleteScopedToAccount, expectEmpty204, fetchContact, xmlOf } from './activity-helpers';
import { expectError } from './expectations';
import { setupCrmApp, type TestUser } from './setup-app';

/** Tasks: T1–T10, C10 and PUT /dev/api/tasks/partial-update. */
const ctx = setupCrmApp();

const Tasks = () => ctx.connection.collection('tasks');
const storedTasks = () => Tasks().find().sort({ _id: 1 }).toArray();
const DAY = 86_400;
const now = () => Math.floor(Date.now() / 1000);

let ann: TestUser, bob: TestUser, zed: TestUser;
beforeEach(async () => {
  ({ ann, colleague: bob, zed } = await ctx.threeUsers());
});

const base = { subject: 'Call Ann', type: 'CALL', priority_type: 'HIGH', due: 1_900_000_000 };

type Task = { id: number; status: string; progress: number; is_complete: boolean; due: number } & Record<string, unknown>;

async function createTask(user: TestUser, body: object = {}): Promise<Task> {
  const res = await ctx.as(user).post('/dev/api/tasks').send({ ...base, ...body });
  expect(res.status).toBe(200);
  return res.body;
}

/** The user as GET /dev/api/users shows it to ann (asking as the user itself would log them in). */
async function currentUserView(user: TestUser) {
  const users = (await ctx.as(ann).get('/dev/api/users')).body as Array<{ id: number }>;
  return users.find((u) => u.id === user.id);
}

const ids = (res: { body: Array<{ id: number }> }) => res.body.map((t) => t.id);

describe('T7: POST /dev/api/tasks', () => {
  it('creates a task with the defaults, full contact objects, the owner and note ids', async () => {
    const a = await createContact(ctx, ann, 'Ann', 'ann@x.test');
    const note = (await ctx.as(ann).post('/dev/api/notes').send({ subject: 'N', description: 'D' })).body;
    const before = now();
    const res = await ctx.as(ann).post('/dev/api/tasks').send({ ...base, due: String(base.due), contacts: [String(a.id)], notes: [String(note.id)] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      subject: 'Call Ann',
      type: 'CALL',
      priority_type: 'HIGH',
      due: base.due,
      status: 'YET_TO_START',
      progress: 0,
      is_complete: false,
      contacts: [await fetchContact(ctx, ann, a.id)],
      notes: [String(note.id)],
      owner_id: ann.id,
      taskOwner: await currentUserView(ann),
      created_time: expect.any(Number),
      updated_time: expect.any(Number),
      entity_type: 'task',
    });
    expect(res.body.created_time).toBeGreaterThanOrEqual(before);
    expect(await storedTasks()).toEqual([
      expect.objectContaining({ _id: res.body.id, account: ann.account, owner: ann.id, contacts: [a.id], notes: [note.id], status: 'YET_TO_START', is_complete: false }),
    ]);
  });

  it('assigns the task to owner_id, a user of the account', async () => {
    const task = await createTask(ann, { owner_id: String(bob.id) });
    expect(task.owner_id).toBe(bob.id);
    expect(task.taskOwner).toEqual(await currentUserView(bob));
  });

  it('answers XML with root task when asked', async () => {
    const a = await createContact(ctx, ann, 'Ann');
    const res = await ctx.as(ann).post('/dev/api/tasks').set('Accept', 'application/xml').send({ ...base, contacts: [a.id] });
    expect(res.status).toBe(200);
    const xml = xmlOf(res) as { task: Record<string, unknown> };
    expect(xml.task).toMatchObject({ subject: 'Call Ann', type: 'CALL', status: 'YET_TO_START', is_complete: 'false', entity_type: 'task' });
    expect(xml.task.contacts).toMatchObject({ id: String(a.id), type: 'PERSON' });
  });

  it.each([
    [{ ...base, subject: undefined }, ['subject']],
    [{ ...base, type: undefined }, ['type']],
    [{ ...base, priority_type: undefined }, ['priority_type']],
    [{ ...base, due: undefined }, ['due']],
    [{ ...base, type: 'call' }, ['type']],
    [{ ...base, type: 'MEET' }, ['type']],
    [{ ...base, priority_type: 'High' }, ['priority_type']],
    [{ ...base, status: 'completed' }, ['status']],
    [{ ...base, progress: 101 }, ['progress']],
    [{ ...base, progress: -1 }, ['progress']],
    [{ ...base, progress: 5.5 }, ['progress']],
    [{ ...base, is_complete: 'yes' }, ['is_complete']],
    [{ ...base, due: 'tomorrow' }, ['due']],
    [{ ...base, contacts: ['x'] }, ['contacts.0']],
    [{ ...base, done: true }, ['done']],
  ])('answers 400 naming the field (%#) and stores nothing', async (body, fields) => {
    const res = await ctx.as(ann).post('/dev/api/tasks').send(body);
    expectError(res, 400, 'validation_failed', fields);
    expect(await storedTasks()).toEqual([]);
  });

  it("answers 400 for other accounts' contacts, notes and users, and an id, storing nothing", async () => {
    const theirContact = await createContact(ctx, zed, 'Zed');
    const theirNote = (await ctx.as(zed).post('/dev/api/notes').send({ subject: 'N', description: 'D' })).body;
    expectError(await ctx.as(ann).post('/dev/api/tasks').send({ ...base, contacts: [theirContact.id] }), 400, 'validation_failed', ['contacts']);
    expectError(await ctx.as(ann).post('/dev/api/tasks').send({ ...base, notes: [theirNote.id] }), 400, 'validation_failed', ['notes']);
    expectError(await ctx.as(ann).post('/dev/api/tasks').send({ ...base, owner_id: zed.id }), 400, 'validation_failed', ['owner_id']);
    expectError(await ctx.as(ann).post('/dev/api/tasks').send({ ...base, id: 1 }), 400, 'validation_failed', ['id']);
    expect(await storedTasks()).toEqual([]);
  });

  it('answers 401 without credentials and stores nothing', async () => {
    expectError(await request(ctx.app).post('/dev/api/tasks').send(base), 401, 'unauthorized');
    expect(await storedTasks()).toEqual([]);
  });
});

describe('status, progress and is_complete stay consistent', () => {
  it.each([
    [{ status: 'COMPLETED' }, { status: 'COMPLETED', progress: 100, is_complete: true }],
    [{ is_complete: true }, { status: 'COMPLETED', progress: 100, is_complete: true }],
    [{ progress: 100 }, { status: 'COMPLETED', progress: 100, is_complete: true }],
    [{ progress: 40 }, { status: 'IN_PROGRESS', progress: 40, is_complete: false }],
    [{ status: 'IN_PROGRESS' }, { status: 'IN_PROGRESS', progress: 0, is_complete: false }],
    [{ status: 'IN_PROGRESS', progress: 60, is_complete: false }, { status: 'IN_PROGRESS', progress: 60, is_complete: false }],
    [{ is_complete: false }, { status: 'YET_TO_START', progress: 0, is_complete: false }],
  ])('on create %p gives %p', async (sent, expected) => {
    const task = await createTask(ann, sent);
    expect({ status: task.status, progress: task.progress, is_complete: task.is_complete }).toEqual(expected);
    expect(await storedTasks()).toEqual([expect.objectContaining(expected)]);
  });

  it.each([
    [{ status: 'COMPLETED', progress: 50 }, ['progress']],
    [{ status: 'COMPLETED', is_complete: false }, ['is_complete']],
    [{ status: 'IN_PROGRESS', is_complete: true }, ['is_complete']],
    [{ status: 'IN_PROGRESS', progress: 100 }, ['progress']],
    [{ status: 'YET_TO_START', progress: 30 }, ['progress']],
    [{ progress: 100, is_complete: false }, ['is_complete']],
    [{ progress: 50, is_complete: true }, ['is_complete']],
  ])('refuses the contradiction %p with 400 and stores nothing', async (sent, fields) => {
    expectError(await ctx.as(ann).post('/dev/api/tasks').send({ ...base, ...sent }), 400, 'validation_failed', fields);
    expect(await storedTasks()).toEqual([]);
  });

  it('applies the same rules to partial updates, against the stored task', async () => {
    const task = await createTask(ann);
    const patch = async (body: object) => {
      const res = await ctx.as(ann).put('/dev/api/tasks/partial-update').send({ id: task.id, ...body });
      return res;
    };
    const state = (res: { body: Task }) => [res.body.status, res.body.progress, res.body.is_complete];
    expect(state(await patch({ progress: 30 }))).toEqual(['IN_PROGRESS', 30, false]);
    expect(state(await patch({ status: 'IN_PROGRESS' }))).toEqual(['IN_PROGRESS', 30, false]); // keeps the progress
    expect(state(await patch({ is_complete: true }))).toEqual(['COMPLETED', 100, true]);
    expectError(await patch({ progress: 20, status: 'COMPLETED' }), 400, 'validation_failed', ['progress']);
    expect(state(await patch({ subject: 'Renamed' }))).toEqual(['COMPLETED', 100, true]);
    expect(state(await patch({ is_complete: false }))).toEqual(['YET_TO_START', 0, false]); // reopened
    expect(state(await patch({ status: 'COMPLETED' }))).toEqual(['COMPLETED', 100, true]);
    expect(state(await patch({ status: 'IN_PROGRESS' }))).toEqual(['IN_PROGRESS', 0, false]);
    expect(await storedTasks()).toEqual([expect.objectContaining({ subject: 'Renamed', status: 'IN_PROGRESS', progress: 0, is_complete: false })]);
  });
});

describe('T8: POST /dev/api/tasks/email/{email}', () => {
  it('relates the new task to the contact with the email, besides the listed contacts', async () => {
    const a = await createContact(ctx, ann, 'Ann', 'ann@x.test');
    const b = await createContact(ctx, ann, 'Bob');
    const res = await ctx.as(ann).post('/dev/api/tasks/email/ann@x.test').send({ ...base, contacts: [b.id] });
    expect(res.status).toBe(200);
    expect(res.body.contacts).toEqual([await fetchContact(ctx, ann, b.id), await fetchContact(ctx, ann, a.id)]);
    expect(await storedTasks()).toEqual([expect.objectContaining({ contacts: [b.id, a.id] })]);
  });

  it("answers 400 and creates nothing for an email no contact of the account has (case-sensitive, other accounts')", async () => {
    await createContact(ctx, ann, 'Ann', 'ann@x.test');
    await createContact(ctx, zed, 'Zed', 'zed@x.test');
    for (const email of ['nobody@x.test', 'ANN@x.test', 'zed@x.test']) {
      expectError(await ctx.as(ann).post(`/dev/api/tasks/email/${email}`).send(base), 400, 'bad_request', ['email']);
    }
    expect(await storedTasks()).toEqual([]);
  });

  it('answers 400 for a bad task body and creates nothing', async () => {
    await createContact(ctx, ann, 'Ann', 'ann@x.test');
    expectError(await ctx.as(ann).post('/dev/api/tasks/email/ann@x.test').send({ ...base, priority_type: 'URGENT' }), 400, 'validation_failed', ['priority_type']);
    expect(await storedTasks()).toEqual([]);
  });
});

describe('T6: GET /dev/api/tasks/{id}', () => {
  it('answers the task as created, JSON or XML', async () => {
    const a = await createContact(ctx, ann, 'Ann');
    const task = await createTask(ann, { contacts: [a.id] });
    const res = await ctx.as(ann).get(`/dev/api/tasks/${task.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(task);
    const xml = await ctx.as(ann).get(`/dev/api/tasks/${task.id}`).set('Accept', 'application/xml');
    expect((xmlOf(xml) as { task: { id: string } }).task.id).toBe(String(task.id));
  });

  it("answers 204 for an unknown id or another account's task, 400 for a malformed id", async () => {
    const theirs = await createTask(zed);
    expectEmpty204(await ctx.as(ann).get(`/dev/api/tasks/${theirs.id}`));
    expectEmpty204(await ctx.as(ann).get('/dev/api/tasks/999999'));
    expectError(await ctx.as(ann).get('/dev/api/tasks/abc'), 400, 'validation_failed', ['id']);
  });
});

describe('T9: PUT /dev/api/tasks', () => {
  it('replaces the sent fields; optional fields not sent stay', async () => {
    const a = await createContact(ctx, ann, 'Ann');
    const task = await createTask(ann, { contacts: [a.id], progress: 20 });
    const res = await ctx.as(ann).put('/dev/api/tasks').send({ id: task.id, ...base, subject: 'Email Ann', type: 'EMAIL', priority_type: 'LOW' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...task, subject: 'Email Ann', type: 'EMAIL', priority_type: 'LOW', updated_time: expect.any(Number) });
    expect(await storedTasks()).toEqual([expect.objectContaining({ subject: 'Email Ann', contacts: [a.id], progress: 20, status: 'IN_PROGRESS' })]);
  });

  it('accepts a fetched task sent back unchanged (contacts as objects, read-only fields ignored)', async () => {
    const a = await createContact(ctx, ann, 'Ann');
    const task = await createTask(ann, { contacts: [a.id] });
    const res = await ctx.as(ann).put('/dev/api/tasks').send(task);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...task, updated_time: expect.any(Number) });
  });

  it('answers 400 when a required field is missing, and changes nothing', async () => {
    const task = await createTask(ann);
    expectError(await ctx.as(ann).put('/dev/api/tasks').send({ id: task.id, subject: 'X' }), 400, 'validation_failed', ['type', 'priority_type', 'due']);
    expectError(await ctx.as(ann).put('/dev/api/tasks').send(base), 400, 'validation_failed', ['id']);
    expect(await storedTasks()).toEqual([expect.objectContaining({ subject: base.subject })]);
  });

  it("answers 404 for an unknown or another account's task", async () => {
    const theirs = await createTask(zed);
    expectError(await ctx.as(ann).put('/dev/api/tasks').send({ ...base, id: theirs.id, subject: 'Mine now' }), 404, 'task_not_found');
    expectError(await ctx.as(ann).put('/dev/api/tasks').send({ ...base, id: 999999 }), 404, 'task_not_found');
    expect(await storedTasks()).toEqual([expect.objectContaining({ subject: base.subject, account: zed.account })]);
  });
});

describe('PUT /dev/api/tasks/partial-update', () => {
  it('changes only the sent fields', async () => {
    const a = await createContact(ctx, ann, 'Ann');
    const task = await createTask(ann, { contacts: [a.id] });
    const res = await ctx.as(ann).put('/dev/api/tasks/partial-update').send({ id: task.id, priority_type: 'LOW', owner_id: bob.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...task, priority_type: 'LOW', owner_id: bob.id, taskOwner: await currentUserView(bob), updated_time: expect.any(Number) });
  });

  it('answers 400 for bad fields and 404 for a task of another account, changing nothing', async () => {
    const task = await createTask(ann);
    const theirs = await createTask(zed);
    expectError(await ctx.as(ann).put('/dev/api/tasks/partial-update').send({ id: task.id, type: 'Call' }), 400, 'validation_failed', ['type']);
    expectError(await ctx.as(ann).put('/dev/api/tasks/partial-update').send({ type: 'CALL' }), 400, 'validation_failed', ['id']);
    expectError(await ctx.as(ann).put('/dev/api/tasks/partial-update').send({ id: theirs.id, subject: 'X' }), 404, 'task_not_found');
    expect((await storedTasks()).map((t) => t.subject)).toEqual([base.subject, base.subject]);
  });

  it('concurrent partial updates of different fields all land', async () => {
    const task = await createTask(ann);
    const changes = [{ subject: 'S2' }, { priority_type: 'LOW' }, { type: 'MEETING' }, { due: 1_950_000_000 }, { progress: 50 }, { owner_id: bob.id }];
    const results = await Promise.all(changes.map((c) => ctx.as(ann).put('/dev/api/tasks/partial-update').send({ id: task.id, ...c })));
    expect(results.map((r) => r.status)).toEqual(changes.map(() => 200));
    expect(await storedTasks()).toEqual([
      expect.objectContaining({ subject: 'S2', priority_type: 'LOW', type: 'MEETING', due: 1_950_000_000, progress: 50, status: 'IN_PROGRESS', owner: bob.id }),
    ]);
  });
});

describe('T10: DELETE /dev/api/tasks/{id}', () => {
  it("deletes the task; unknown ids and other accounts' tasks answer 204 and stay", async () => {
    const mine = await createTask(ann);
    const theirs = await createTask(zed);
    await expectDeleteScopedToAccount(ctx, ann, '/dev/api/tasks', { mine, theirs }, async () => (await storedTasks()).map((t) => t._id));
  });
});

describe('task lists', () => {
  it('T1 lists pending tasks of every user of the account by due date; T2 all of them; T4 the caller’s', async () => {
    const late = await createTask(ann, { due: 1_900_000_300 });
    const early = await createTask(bob, { due: 1_900_000_100 });
    const done = await createTask(ann, { due: 1_900_000_200, status: 'COMPLETED' });
    await createTask(zed);
    const pending = await ctx.as(ann).get('/dev/api/tasks');
    expect(pending.status).toBe(200);
    expect(ids(pending)).toEqual([early.id, late.id]);
    expect(pending.body[0]).toEqual({ ...early, count: 2 });
    expect(ids(await ctx.as(ann).get('/dev/api/tasks/all'))).toEqual([early.id, done.id, late.id]);
    expect(ids(await ctx.as(ann).get('/dev/api/tasks/my/tasks'))).toEqual([done.id, late.id]);
    expect(ids(await ctx.as(bob).get('/dev/api/tasks/my/tasks'))).toEqual([early.id]);
  });

  it('answers an empty list (200) when nothing matches, and XML with root tasks', async () => {
    const res = await ctx.as(ann).get('/dev/api/tasks');
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: [] });
    await createTask(ann);
    const xml = await ctx.as(ann).get('/dev/api/tasks/all').set('Accept', 'application/xml');
    expect(xml.status).toBe(200);
    expect((xmlOf(xml) as { tasks: { task: { count: string; subject: string } } }).tasks.task).toMatchObject({ count: '1', subject: base.subject });
  });

  it('T3 lists pending tasks due from the start of today (UTC) to the end of the day num-days from today', async () => {
    const today = Math.floor(now() / DAY) * DAY;
    const yesterday = await createTask(ann, { due: today - 60 });
    const todayTask = await createTask(ann, { due: today + 10 });
    const tomorrow = await createTask(ann, { due: today + DAY + 10 });
    const inThree = await createTask(ann, { due: today + 3 * DAY + 10 });
    await createTask(ann, { due: today + 20, status: 'COMPLETED' });
    expect(ids(await ctx.as(ann).get('/dev/api/tasks/pending/0'))).toEqual([todayTask.id]);
    expect(ids(await ctx.as(ann).get('/dev/api/tasks/pending/1'))).toEqual([todayTask.id, tomorrow.id]);
    expect(ids(await ctx.as(ann).get('/dev/api/tasks/pending/3'))).toEqual([todayTask.id, tomorrow.id, inThree.id]);
    expect(ids(await ctx.as(ann).get('/dev/api/tasks/pending/3'))).not.toContain(yesterday.id);
    expectError(await ctx.as(ann).get('/dev/api/tasks/pending/-1'), 400, 'validation_failed', ['days']);
    expectError(await ctx.as(ann).get('/dev/api/tasks/pending/x'), 400, 'validation_failed', ['days']);
  });

  it('C10 lists the tasks of a contact, latest due first; other accounts see none', async () => {
    const a = await createContact(ctx, ann, 'Ann');
    const first = await createTask(ann, { due: 1_900_000_100, contacts: [a.id] });
    const last = await createTask(ann, { due: 1_900_000_900, contacts: [a.id] });
    await createTask(ann, { due: 1_900_000_500 });
    const res = await ctx.as(ann).get(`/dev/api/contacts/${a.id}/tasks/sort`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([last.id, first.id]);
    expect(res.body[0].contacts).toEqual([await fetchContact(ctx, ann, a.id)]);
    expect((await ctx.as(zed).get(`/dev/api/contacts/${a.id}/tasks/sort`)).body).toEqual([]);
    expect(await allPages(ctx, ann, `/dev/api/contacts/${a.id}/tasks/sort`, 1)).toEqual([[last.id], [first.id]]);
  });
});

describe('T5: GET /dev/api/tasks/based', () => {
  let t: Record<string, Task>;
  beforeEach(async () => {
    t = {
      call: await createTask(ann, { type: 'CALL', due: 1_900_000_100 }),
      email: await createTask(bob, { type: 'EMAIL', due: 1_900_000_200 }),
      done: await createTask(ann, { type: 'EMAIL', due: 1_900_000_300, status: 'COMPLETED' }),
      meeting: await createTask(bob, { type: 'MEETING', due: 1_900_000_400 }),
    };
    await createTask(zed, { type: 'CALL', due: 1_900_000_100 });
  });

  it.each([
    ['', ['call', 'email', 'done', 'meeting']],
    ['type=EMAIL', ['email', 'done']],
    ['pending=true', ['call', 'email', 'meeting']],
    ['pending=false', ['done']],
    ['start_time=1900000200', ['email', 'done', 'meeting']],
    ['end_time=1900000200', ['call', 'email']],
    ['start_time=1900000200&end_time=1900000300', ['email', 'done']],
    ['type=EMAIL&pending=true', ['email']],
  ])('filters %p', async (query, expected) => {
    const res = await ctx.as(ann).get(`/dev/api/tasks/based?${query}`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual(expected.map((name) => t[name].id));
  });

  it('filters by owner (a user id)', async () => {
    expect(ids(await ctx.as(ann).get(`/dev/api/tasks/based?owner=${bob.id}`))).toEqual([t.email.id, t.meeting.id]);
    expect(ids(await ctx.as(ann).get(`/dev/api/tasks/based?owner=${zed.id}`))).toEqual([]);
  });

  it('pages (default 20) with count on the first and a cursor bound to the filter', async () => {
    const pages = await allPages(ctx, ann, '/dev/api/tasks/based?type=EMAIL', 1);
    expect(pages).toEqual([[t.email.id], [t.done.id]]);
    const first = await ctx.as(ann).get('/dev/api/tasks/based?page_size=3');
    expect(first.body[0].count).toBe(4);
    expect(first.body).toHaveLength(3);
    expectError(await ctx.as(ann).get(`/dev/api/tasks/based?type=CALL&cursor=${first.body[2].cursor}`), 400, 'invalid_cursor', ['cursor']);
  });

  it.each([
    ['type=call', 'type'],
    ['pending=yes', 'pending'],
    ['owner=ann', 'owner'],
    ['start_time=-5', 'start_time'],
    ['start_time=10&end_time=5', 'end_time'],
    ['page_size=0', 'page_size'],
    ['sort=due', 'sort'],
  ])('answers 400 naming the parameter for %p', async (query, field) => {
    expectError(await ctx.as(ann).get(`/dev/api/tasks/based?${query}`), 400, 'validation_failed', [field]);
  });
});
