import request, { type Response } from 'supertest';
import { create as parseXml } from 'xmlbuilder2';
import { company, person, setupCrmApp, type TestUser } from './setup-app';

/**
 * The spec audit (docs/SPEC-AUDIT-crm.md) as one table: for every endpoint that answers a body,
 * the exact JSON field set of each resource (spec fields, nothing internal such as _id, account,
 * rev, lock or emails), the type of every id and timestamp, and the XML root and item names.
 * (The app empties the database before each test, so the records are made for each.)
 */
const ctx = setupCrmApp();

const DOMAIN_USER = ['id', 'domain', 'email', 'is_admin', 'is_account_owner', 'is_disabled', 'name', 'password', 'info_json_string', 'hashedString'];
const CONTACT = ['id', 'type', 'tags', 'lead_score', 'star_value', 'properties', 'campaignStatus', 'unsubscribeStatus', 'emailBounceStatus', 'created_time', 'updated_time', 'tags_with_time_json', 'domainUser'];
const PERSON_IN_COMPANY = [...CONTACT, 'contact_company_id'];
const DEAL = ['id', 'name', 'description', 'expected_value', 'pipeline_id', 'milestone', 'probability', 'close_date', 'created_time', 'updated_time', 'owner_id', 'contact_ids', 'contacts', 'custom_data', 'deal_source_id', 'notes', 'entity_type', 'track', 'owner'];
const NOTE = ['id', 'created_time', 'updated_time', 'subject', 'description', 'contacts', 'owner_id', 'entity_type'];
const TASK = ['id', 'subject', 'type', 'priority_type', 'due', 'status', 'progress', 'is_complete', 'contacts', 'notes', 'owner_id', 'taskOwner', 'created_time', 'updated_time', 'entity_type'];
const EVENT = ['id', 'title', 'start', 'end', 'allDay', 'color', 'is_event_starred', 'contacts', 'created_time', 'updated_time'];
const TRACK = ['id', 'name', 'milestones'];

const sorted = (keys: string[]) => [...keys].sort();
const keysOf = (value: object) => sorted(Object.keys(value));

/** The root element's name and the names of its children, in order. */
function xmlNames(res: Response): { root: string; children: string[] } {
  expect(res.headers['content-type']).toMatch(/^application\/xml/);
  const doc = parseXml(res.text).root();
  return { root: doc.node.nodeName, children: [...doc.node.childNodes].map((child) => child.nodeName) };
}

let ann: TestUser;
let person1: Record<string, unknown> & { id: number };
let company1: Record<string, unknown> & { id: number };
let deal: Record<string, unknown> & { id: number };
let note: Record<string, unknown> & { id: number };
let task: Record<string, unknown> & { id: number };
let event: Record<string, unknown> & { id: number };
let track: Record<string, unknown> & { id: number };

beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
  const as = ctx.as(ann);
  company1 = (await as.post('/dev/api/contacts').send(company('Acme'))).body;
  person1 = (await as.post('/dev/api/contacts').send(person('Ann', 'ann@x.test', { tags: ['Lead'], contact_company_id: company1.id }))).body;
  track = (await as.post('/dev/api/milestone/pipelines').send({ name: 'Sales', milestone: 'Lead,Won' })).body;
  deal = (
    await as
      .post('/dev/api/opportunity')
      .send({ name: 'D', expected_value: 10, pipeline_id: track.id, milestone: 'Lead', close_date: 1_800_000_000, owner_id: String(ann.id), contact_ids: [String(person1.id)] })
  ).body;
  note = (await as.post('/dev/api/notes').send({ subject: 'S', description: 'D', contact_ids: [String(person1.id)] })).body;
  task = (await as.post('/dev/api/tasks').send({ subject: 'T', type: 'CALL', priority_type: 'HIGH', due: 1_800_000_000, contacts: [String(person1.id)], notes: [String(note.id)] })).body;
  event = (await as.post('/dev/api/events').send({ title: 'E', start: 1_800_000_000, end: 1_800_003_600, color: 'red', contact_ids: [String(person1.id)] })).body;
});

describe('exact JSON field sets (spec fields only, nothing internal)', () => {
  it('contacts and companies, with their owner (domainUser)', () => {
    expect(keysOf(person1)).toEqual(sorted(PERSON_IN_COMPANY));
    expect(keysOf(company1)).toEqual(sorted(CONTACT));
    expect(keysOf(person1.domainUser as object)).toEqual(sorted(DOMAIN_USER));
    expect((person1.domainUser as { password: string }).password).toBe('**********');
  });

  it('deals, notes, tasks, events and tracks; related contacts inside them are full contacts', () => {
    expect(keysOf(deal)).toEqual(sorted(DEAL));
    expect(keysOf(note)).toEqual(sorted(NOTE));
    expect(keysOf(task)).toEqual(sorted(TASK));
    expect(keysOf(event)).toEqual(sorted(EVENT));
    expect(keysOf(track)).toEqual(sorted(TRACK));
    for (const holder of [deal, task, event]) expect(keysOf((holder.contacts as object[])[0])).toEqual(sorted(PERSON_IN_COMPANY));
    expect(keysOf(deal.owner as object)).toEqual(sorted(DOMAIN_USER));
    expect(keysOf(task.taskOwner as object)).toEqual(sorted(DOMAIN_USER));
  });

  it('list items add only count (first) and cursor (last, when more follow)', async () => {
    const as = ctx.as(ann);
    const lists: Array<[string, string[]]> = [
      ['/dev/api/contacts?page_size=1', CONTACT],
      ['/dev/api/opportunity', DEAL],
      [`/dev/api/contacts/${person1.id}/notes`, NOTE],
      ['/dev/api/tasks/all', TASK],
      [`/dev/api/events?start=0&end=1900000000`, EVENT],
    ];
    for (const [path, fields] of lists) {
      const [first] = (await as.get(path)).body as Array<Record<string, unknown>>;
      const expected = [...fields, 'count', ...(path.includes('page_size=1') ? ['cursor'] : [])];
      expect([path, keysOf(first)]).toEqual([path, sorted(expected)]);
      expect(typeof first.count).toBe('number');
    }
  });
});

describe('omitted, not null', () => {
  it('widget_properties is absent until set, shown once set, and absent again after null (README)', async () => {
    const as = ctx.as(ann);
    expect(person1).not.toHaveProperty('widget_properties');
    const set = await as.put('/dev/api/contacts').send({ id: person1.id, widget_properties: '{"w":1}' });
    expect(set.body.widget_properties).toBe('{"w":1}');
    const unset = await as.put('/dev/api/contacts').send({ id: person1.id, widget_properties: null });
    expect(unset.status).toBe(200);
    expect(unset.body).not.toHaveProperty('widget_properties');
    expect(await ctx.Contact.findById(person1.id).lean()).toMatchObject({ widget_properties: null });
  });

  it('contact_company_id only on a person of a company; an event color only when set', async () => {
    expect(company1).not.toHaveProperty('contact_company_id');
    const loner = (await ctx.as(ann).post('/dev/api/contacts').send(person('Lo'))).body;
    expect(loner).not.toHaveProperty('contact_company_id');
    const plain = (await ctx.as(ann).post('/dev/api/events').send({ title: 'P', start: 1, end: 2 })).body;
    expect(plain).not.toHaveProperty('color');
    expect(event.color).toBe('red');
  });
});

describe('the type of every id and timestamp', () => {
  it('ids and epoch-second times are numbers; deal owner_id, deal contact_ids, note contacts and task notes are strings (as the spec types them)', () => {
    const now = Date.now() / 1000;
    for (const record of [person1, company1, deal, note, task, event]) {
      expect(Number.isInteger(record.id)).toBe(true);
      for (const field of ['created_time', 'updated_time']) {
        expect(Number.isInteger(record[field])).toBe(true);
        expect(Math.abs((record[field] as number) - now)).toBeLessThan(600);
      }
    }
    expect(Number.isInteger(track.id)).toBe(true);
    expect(person1.contact_company_id).toBe(company1.id);
    expect(deal).toMatchObject({ pipeline_id: track.id, close_date: 1_800_000_000, expected_value: 10, probability: 0, owner_id: String(ann.id), contact_ids: [String(person1.id)] });
    expect(note.contacts).toEqual([String(person1.id)]);
    expect(task).toMatchObject({ owner_id: ann.id, due: 1_800_000_000, notes: [String(note.id)], progress: 0 });
    expect(event).toMatchObject({ start: 1_800_000_000, end: 1_800_003_600 });
    const tagTimes = JSON.parse(person1.tags_with_time_json as string) as Record<string, number>;
    expect(Math.abs(tagTimes.Lead - Date.now())).toBeLessThan(600_000); // epoch milliseconds
    const info = JSON.parse((person1.domainUser as { info_json_string: string }).info_json_string);
    expect(Object.keys(info).sort()).toEqual(['created_time', 'logged_in_time']);
  });
});

describe('convention 3: JSON or XML by Accept', () => {
  it('the contact list (C1) is XML when Accept is absent or */* (what curl sends); every other endpoint is JSON then', async () => {
    const anyType = (path: string, accept?: string) => {
      const req = request(ctx.app).get(path).set('Authorization', ann.auth);
      return accept ? req.set('Accept', accept) : req;
    };
    for (const accept of [undefined, '*/*']) {
      expect((await anyType('/dev/api/contacts', accept)).headers['content-type']).toMatch(/^application\/xml/);
      for (const path of [`/dev/api/contacts/${person1.id}`, '/dev/api/opportunity', '/dev/api/tasks', '/dev/api/milestone/pipelines']) {
        expect([path, accept, (await anyType(path, accept)).headers['content-type']]).toEqual([path, accept, expect.stringMatching(/^application\/json/)]);
      }
    }
    expect((await anyType('/dev/api/contacts', 'application/json')).headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('XML root and item names of every endpoint that answers a body', () => {
  type Call = [label: string, run: (as: ReturnType<typeof ctx.as>) => Promise<Response>, root: string, item: string | null];
  const form = (as: ReturnType<typeof ctx.as>, path: string, fields: Record<string, string>) => as.post(path).type('form').send(fields);
  const calls: Call[] = [
    ['C1', (as) => as.get('/dev/api/contacts'), 'contacts', 'contact'],
    ['C2', (as) => as.get(`/dev/api/contacts/${person1.id}`), 'contact', null],
    ['C3', (as) => as.post('/dev/api/contacts').send(person('Bo')), 'contact', null],
    ['C4', (as) => as.put('/dev/api/contacts').send({ id: person1.id, star_value: 2 }), 'contact', null],
    ['C6 match', (as) => form(as, '/dev/api/contacts/search/email', { email_ids: '["ann@x.test"]' }), 'contacts', 'contact'],
    ['C6 none', (as) => form(as, '/dev/api/contacts/search/email', { email_ids: '["nobody@x.test"]' }), 'contacts', null],
    ['C9', (as) => form(as, '/dev/api/contacts/add-score', { email: 'ann@x.test', score: '1' }), 'contact', null],
    ['C10', (as) => as.get(`/dev/api/contacts/${person1.id}/tasks/sort`), 'tasks', 'task'],
    ['C11', (as) => as.post('/dev/api/contacts/add/property?email=ann@x.test').send({ type: 'SYSTEM', name: 'title', value: 'CEO' }), 'contact', null],
    ['C12', (as) => form(as, '/dev/api/contacts/change-owner', { owner_email: 'ann@acme.test', contact_id: String(person1.id) }), 'contact', null],
    ['D1', (as) => as.get('/dev/api/opportunity'), 'collection', 'opportunity'],
    ['D2', (as) => as.get(`/dev/api/opportunity/${deal.id}`), 'opportunity', null],
    ['D4', (as) => as.put('/dev/api/opportunity').send({ ...deal, probability: 5 }), 'opportunity', null],
    ['D8', (as) => as.get('/dev/api/opportunity/byMilestone'), 'milestones', 'milestone'],
    ['D9', (as) => as.get(`/dev/api/opportunity/byPipeline/based?pipeline_id=${track.id}`), 'milestones', 'milestone'],
    ['D10', (as) => as.get('/dev/api/opportunity/based?pipeline_id=1'), 'collection', 'opportunity'],
    ['D11', (as) => as.get(`/dev/api/contacts/${person1.id}/deals`), 'collection', 'opportunity'],
    ['D12', (as) => as.get('/dev/api/opportunity/my/deals'), 'collection', 'opportunity'],
    ['D7', (as) => as.post('/dev/api/opportunity/bulk').send({ ids: [999_999] }), 'result', null],
    ['N1', (as) => as.post('/dev/api/notes').send({ subject: 'S', description: 'D' }), 'note', null],
    ['N3', (as) => as.get(`/dev/api/contacts/${person1.id}/notes`), 'collection', 'note'],
    ['T1', (as) => as.get('/dev/api/tasks'), 'tasks', 'task'],
    ['T2', (as) => as.get('/dev/api/tasks/all'), 'tasks', 'task'],
    ['T4', (as) => as.get('/dev/api/tasks/my/tasks'), 'tasks', 'task'],
    ['T5', (as) => as.get('/dev/api/tasks/based?type=CALL'), 'tasks', 'task'],
    ['T6', (as) => as.get(`/dev/api/tasks/${task.id}`), 'task', null],
    ['T9', (as) => as.put('/dev/api/tasks').send({ id: task.id, subject: 'T', type: 'CALL', priority_type: 'LOW', due: 1_800_000_000 }), 'task', null],
    ['E1', (as) => as.get('/dev/api/events?start=0&end=1900000000'), 'events', 'event'],
    ['E2', (as) => as.get(`/dev/api/contacts/${person1.id}/events/sort`), 'events', 'event'],
    ['E4', (as) => as.put('/dev/api/events').send({ id: event.id, title: 'E2' }), 'event', null],
    ['K1', (as) => as.get('/dev/api/milestone/pipelines'), 'tracks', 'track'],
    ['K3', (as) => as.put('/dev/api/milestone/pipelines').send({ id: track.id, name: 'Sales', milestone: 'Lead,Won,Lost' }), 'track', null],
    ['error', (as) => as.get('/dev/api/contacts/abc'), 'error', null],
  ];

  it.each(calls.map(([label, run, root, item]) => ({ label, run, root, item })))('$label', async ({ run, root, item }) => {
    const as = ctx.as(ann);
    const res = await run({
      get: (path) => as.get(path).set('Accept', 'application/xml'),
      post: (path) => as.post(path).set('Accept', 'application/xml'),
      put: (path) => as.put(path).set('Accept', 'application/xml'),
      delete: (path) => as.delete(path).set('Accept', 'application/xml'),
    });
    const names = xmlNames(res);
    expect(names.root).toBe(root);
    if (item) {
      expect(names.children.length).toBeGreaterThan(0);
      expect(new Set(names.children)).toEqual(new Set([item]));
    } else if (root === 'error') {
      expect(names.children).toEqual(['status', 'code', 'message', 'fields']);
    } else if (root === 'contacts' || root === 'result') {
      expect(names.children).toEqual([]); // C6 with no match ({}), D7 deleting nothing ({"deleted": []})
    } else {
      expect(names.children[0]).toBe('id');
    }
  });
});
