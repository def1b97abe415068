import { limitBytes } from '@lib/http';
import type { Model } from 'mongoose';
import { CONTACT_WORST_BYTES } from '../src/contacts/contact.paging';
import { MAX_RELATED_CONTACTS } from '../src/contacts/contact-links';
import { MAX_PROPERTIES, PROPERTY_TEXT_MAX, TAG_LENGTH_MAX, TAG_MAX, WIDGET_PROPERTIES_MAX } from '../src/contacts/contact-rules';
import { DEAL_WORST_BYTES } from '../src/deals/deal.paging';
import { CUSTOM_NAME_MAX, CUSTOM_TEXT_MAX, DEAL_DESCRIPTION_MAX, DEAL_NAME_MAX, MAX_CUSTOM_DATA } from '../src/deals/deal.schemas';
import { EVENT_WORST_BYTES } from '../src/events/event.paging';
import { eventModel } from '../src/events/event.model';
import { EVENT_TITLE_MAX } from '../src/events/event.schemas';
import { BODY_LIMITS } from '../src/http/body-limits';
import { CURSOR_BYTES, PAGE_BUDGET_BYTES } from '../src/http/page-budget';
import { NOTE_WORST_BYTES } from '../src/notes/note.paging';
import { noteModel } from '../src/notes/note.model';
import { NOTE_DESCRIPTION_MAX, NOTE_SUBJECT_MAX } from '../src/notes/note.schemas';
import { PAGE_SIZE_MAX } from '../src/paging';
import { TASK_WORST_BYTES } from '../src/tasks/task.paging';
import { taskModel } from '../src/tasks/task.model';
import { TASK_SUBJECT_MAX } from '../src/tasks/task.schemas';
import { dealHelpers, type Track } from './deal-helpers';
import { company, setupCrmApp, type TestUser } from './setup-app';

/**
 * Pages end at their byte budget, not at a refused page size: every list takes page_size up to
 * PAGE_SIZE_MAX, and a page of records at their bounds ends before the record that would take the
 * answer, as sent, over PAGE_BUDGET_BYTES, with the cursor on its last record; the cursors lead
 * through every record once, in order. Records are built at their stored bounds in the costliest
 * characters (`€` is 3 bytes in JSON and XML, `&` 5 in XML): one through the API (the stored limits
 * accept it), the rest copies of its stored document (creating hundreds at these sizes through the
 * API would take minutes).
 */
const ctx = setupCrmApp();
const h = dealHelpers(ctx);
let ann: TestUser;
let track: Track;

beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
  track = await h.defaultTrack(ann);
});

type Kind = 'json' | 'xml';
const ACCEPT: Record<Kind, string> = { json: 'application/json', xml: 'application/xml' };
const NOW = Math.floor(Date.now() / 1000);

/** A contact at its bounds in `fill`: 50 properties sharing the property text, 100 tags, widget_properties. */
function worstContact(fill: string, firstName = 'Pat', extra: object = {}) {
  const names = Array.from({ length: MAX_PROPERTIES - 1 }, (_, p) => `p${p}`);
  const room = PROPERTY_TEXT_MAX - 'first_name'.length - firstName.length - names.join('').length;
  const each = Math.floor(room / names.length);
  return {
    properties: [
      { type: 'SYSTEM', name: 'first_name', value: firstName },
      ...names.map((name, i) => ({ type: 'CUSTOM', name, value: fill.repeat(each + (i < room % names.length ? 1 : 0)) })),
    ],
    tags: ['VIP', ...Array.from({ length: TAG_MAX - 1 }, (_, t) => `T${t}`.padEnd(TAG_LENGTH_MAX, 'x'))],
    widget_properties: fill.repeat(WIDGET_PROPERTIES_MAX),
    ...extra,
  };
}

/** A deal's own fields at their bounds in `fill`. */
function worstDealFields(fill: string) {
  const value = Math.floor((CUSTOM_TEXT_MAX - MAX_CUSTOM_DATA * CUSTOM_NAME_MAX) / MAX_CUSTOM_DATA);
  return {
    name: fill.repeat(DEAL_NAME_MAX),
    description: fill.repeat(DEAL_DESCRIPTION_MAX),
    custom_data: Array.from({ length: MAX_CUSTOM_DATA }, (_, i) => ({ name: `${i}`.padEnd(CUSTOM_NAME_MAX, fill), value: fill.repeat(value) })),
  };
}

async function created(path: string, body: object): Promise<number> {
  const res = await ctx.as(ann).post(path).send(body);
  expect([path, res.status]).toEqual([path, 200]);
  return res.body.id;
}

/**
 * `count` records in all: the stored record `id` and copies of it, each a second later than the
 * one before (`field`, and created_time), with `changes(i)` applied. The ids of them all.
 */
async function copies(model: Model<never>, id: number, count: number, field = 'created_time', changes: (i: number) => object = () => ({})): Promise<number[]> {
  const original = (await model.findById(id).lean()) as unknown as Record<string, number>;
  const docs = Array.from({ length: count - 1 }, (_, i) => ({
    ...original,
    _id: 1_000_000 + id * 1_000 + i,
    created_time: original.created_time + i + 1,
    [field]: original[field] + i + 1,
    ...changes(i),
  }));
  for (let i = 0; i < docs.length; i += 50) await model.insertMany(docs.slice(i, i + 50) as never[]);
  return [id, ...docs.map((d) => d._id)];
}

interface ListCall {
  label: string;
  method: 'get' | 'post';
  path: string;
  /** Form fields of a POST list (page_size and cursor go with them). */
  form?: Record<string, string>;
  /** The XML element of one item. */
  item: string;
}

interface SeenPage {
  status: number;
  bytes: number;
  ids: number[];
  count?: number;
  cursor?: string;
}

async function fetchPage(list: ListCall, kind: Kind, pageSize: number | string, cursor?: string): Promise<SeenPage> {
  const paging = { page_size: String(pageSize), ...(cursor && { cursor }) };
  const call =
    list.method === 'get'
      ? ctx.as(ann).get(`${list.path}${list.path.includes('?') ? '&' : '?'}${new URLSearchParams(paging)}`)
      : ctx.as(ann).post(list.path).type('form').send({ ...list.form, ...paging });
  const res = await call.set('Accept', ACCEPT[kind]).buffer(true).parse((r, done) => {
    const chunks: Buffer[] = [];
    r.on('data', (chunk: Buffer) => chunks.push(chunk));
    r.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
  });
  const text = res.body as string;
  if (res.status !== 200) return { status: res.status, bytes: Buffer.byteLength(text), ids: [] };
  if (kind === 'json') {
    const items = JSON.parse(text) as Array<{ id: number; count?: number; cursor?: string }>;
    return { status: 200, bytes: Buffer.byteLength(text), ids: items.map((i) => i.id), count: items[0]?.count, cursor: items.at(-1)?.cursor };
  }
  const ids = [...text.matchAll(new RegExp(`<${list.item}><id>(\\d+)</id>`, 'g'))].map((m) => Number(m[1]));
  const count = /<count>(\d+)<\/count>/.exec(text)?.[1];
  return { status: 200, bytes: Buffer.byteLength(text), ids, count: count === undefined ? undefined : Number(count), cursor: /<cursor>([^<]+)<\/cursor>/.exec(text)?.[1] };
}

/**
 * Follows a list's cursors at page_size PAGE_SIZE_MAX: every page within the budget, `count` on its
 * first item, the cursor on its last while more follow; a page that is not the last ended at the
 * budget (the next item would not have fitted). Answers the pages' sizes.
 */
async function walk(list: ListCall, kind: Kind, expected: number[]): Promise<number[]> {
  const seen: number[] = [];
  const sizes: number[] = [];
  let cursor: string | undefined;
  do {
    const page = await fetchPage(list, kind, PAGE_SIZE_MAX, cursor);
    const where = `${list.label} ${kind}, page ${sizes.length + 1}`;
    expect([where, page.status]).toEqual([where, 200]);
    expect([where, page.bytes <= PAGE_BUDGET_BYTES]).toEqual([where, true]);
    expect([where, page.count]).toEqual([where, expected.length]);
    expect(page.ids.length).toBeGreaterThan(0);
    seen.push(...page.ids);
    sizes.push(page.ids.length);
    cursor = page.cursor;
    if (cursor) {
      // ended by the budget: fewer than asked, and one more item of the page's size would not fit
      expect([where, page.ids.length < PAGE_SIZE_MAX]).toEqual([where, true]);
      expect([where, page.bytes + page.bytes / page.ids.length > PAGE_BUDGET_BYTES - CURSOR_BYTES]).toEqual([where, true]);
    }
    if (sizes.length > expected.length) throw new Error(`${list.label}: paging does not end`);
  } while (cursor);
  expect([list.label, kind, seen]).toEqual([list.label, kind, expected]);
  return sizes;
}

/** What page_size every list refuses (walk asks for PAGE_SIZE_MAX): more, or none, is a 400 naming it. */
async function expectPageSizesRefused(list: ListCall) {
  for (const bad of [PAGE_SIZE_MAX + 1, 1000, 0]) {
    const res =
      list.method === 'get'
        ? await ctx.as(ann).get(`${list.path}${list.path.includes('?') ? '&' : '?'}page_size=${bad}`)
        : await ctx.as(ann).post(list.path).type('form').send({ ...list.form, page_size: String(bad) });
    const message = bad > PAGE_SIZE_MAX ? expect.stringContaining(String(PAGE_SIZE_MAX)) : expect.any(String);
    expect([list.label, bad, res.status, res.body.error?.fields]).toEqual([list.label, bad, 400, [{ field: 'page_size', message }]]);
  }
}

const contactsList: ListCall = { label: 'C1', method: 'get', path: '/dev/api/contacts', item: 'contact' };
const dealsList: ListCall = { label: 'D1', method: 'get', path: '/dev/api/opportunity', item: 'opportunity' };

describe.each([
  ['json', '€'],
  ['xml', '&'],
] as const)(`a page of ${PAGE_SIZE_MAX} records at their bounds, as %s (text of %s, its costliest character)`, (kind, fill) => {
  it(`contacts (C1): pages end at the budget, the cursors lead through all ${PAGE_SIZE_MAX} once, in order`, async () => {
    const first = await created('/dev/api/contacts', worstContact(fill));
    const ids = await copies(ctx.Contact as unknown as Model<never>, first, PAGE_SIZE_MAX);
    const sizes = await walk(contactsList, kind, ids);
    expect(sizes.length).toBeGreaterThan(1);
  }, 120_000);

  it(`deals (D1) with a related contact in full: pages end at the budget, the cursors lead through all ${PAGE_SIZE_MAX} once, in order`, async () => {
    const contact = await created('/dev/api/contacts', worstContact(fill));
    const first = (await h.createDeal(ann, track, { ...worstDealFields(fill), contact_ids: [contact] })).id;
    const ids = await copies(h.Deal() as unknown as Model<never>, first, PAGE_SIZE_MAX);
    const sizes = await walk(dealsList, kind, ids);
    expect(sizes.length).toBeGreaterThan(1);
  }, 180_000);
});

describe('every list takes page_size up to 200 and ends its pages at the budget', () => {
  // `€`: 3 bytes in JSON and in XML; 45 records of about 200 kB (a contact, a note, a task or event
  // with its contact), 20 deals of about 600 kB, fill more than a page of either
  const FILL = '€';
  const COUNT = 45;
  const DEALS = 20;

  it('the contact lists: C1, companies, a company\'s persons, search, dynamic filter', async () => {
    const acme = await created('/dev/api/contacts', company('Acme'));
    const person = await created('/dev/api/contacts', worstContact(FILL, 'Pat', { contact_company_id: acme }));
    const persons = await copies(ctx.Contact as unknown as Model<never>, person, COUNT);
    const firm = await created('/dev/api/contacts', { type: 'COMPANY', properties: worstContact(FILL, 'x').properties.map((p, i) => (i === 0 ? { type: 'SYSTEM', name: 'name', value: 'Firm' } : p)) });
    const firms = await copies(ctx.Contact as unknown as Model<never>, firm, COUNT);
    const filterJson = JSON.stringify({ rules: [{ LHS: 'tags', CONDITION: 'EQUALS', RHS: 'VIP' }], contact_type: 'PERSON' });
    // creation order: the copies are a second apart, so persons' and firms' interleave
    const inOrder = async (ids: number[]) => (await ctx.Contact.find({ _id: { $in: ids } }, { _id: 1 }).sort({ created_time: 1, _id: 1 }).lean()).map((c) => c._id);
    expect(persons).toHaveLength(COUNT);
    const lists: Array<[ListCall, number[]]> = [
      [contactsList, await inOrder([acme, ...persons, ...firms])],
      [{ label: 'companies', method: 'post', path: '/dev/api/contacts/companies/list', form: {}, item: 'contact' }, await inOrder([acme, ...firms])],
      [{ label: "a company's persons", method: 'get', path: `/dev/api/contacts/related/${acme}`, item: 'contact' }, persons],
      [{ label: 'search', method: 'get', path: '/dev/api/search?q=Pat', item: 'contact' }, persons],
      [{ label: 'dynamic filter', method: 'post', path: '/dev/api/filters/filter/dynamic-filter', form: { filterJson }, item: 'contact' }, persons],
    ];
    for (const [list, expected] of lists) {
      await expectPageSizesRefused(list);
      for (const kind of ['json', 'xml'] as const) await walk(list, kind, expected);
    }
  }, 240_000);

  it('the deal lists: D1, D10, D11, D12, dynamic filter of OPPORTUNITY', async () => {
    const contact = await created('/dev/api/contacts', worstContact(FILL));
    const first = (await h.createDeal(ann, track, { ...worstDealFields(FILL), contact_ids: [contact] })).id;
    const deals = await copies(h.Deal() as unknown as Model<never>, first, DEALS);
    const filterJson = JSON.stringify({ rules: [{ LHS: 'milestone', CONDITION: 'EQUALS', RHS: 'Open' }], contact_type: 'OPPORTUNITY' });
    const lists: ListCall[] = [
      dealsList,
      { label: 'D10', method: 'get', path: `/dev/api/opportunity/based?pipeline_id=${track.id}`, item: 'opportunity' },
      { label: 'D11', method: 'get', path: `/dev/api/contacts/${contact}/deals`, item: 'opportunity' },
      { label: 'D12', method: 'get', path: '/dev/api/opportunity/my/deals', item: 'opportunity' },
      { label: 'dynamic filter of deals', method: 'post', path: '/dev/api/filters/filter/dynamic-filter', form: { filterJson }, item: 'opportunity' },
    ];
    for (const list of lists) {
      await expectPageSizesRefused(list);
      for (const kind of ['json', 'xml'] as const) await walk(list, kind, deals);
    }
  }, 240_000);

  it("the note lists: a contact's notes (N3), a deal's notes", async () => {
    const contact = await created('/dev/api/contacts', worstContact('x'));
    const deal = (await h.createDeal(ann, track)).id;
    const first = await created('/dev/api/notes', { subject: FILL.repeat(NOTE_SUBJECT_MAX), description: FILL.repeat(NOTE_DESCRIPTION_MAX), contact_ids: [contact], deal_ids: [deal] });
    const notes = await copies(noteModel(ctx.connection) as unknown as Model<never>, first, COUNT);
    for (const list of [
      { label: 'N3', method: 'get', path: `/dev/api/contacts/${contact}/notes`, item: 'note' },
      { label: "a deal's notes", method: 'get', path: `/dev/api/opportunity/${deal}/notes`, item: 'note' },
    ] as ListCall[]) {
      await expectPageSizesRefused(list);
      for (const kind of ['json', 'xml'] as const) await walk(list, kind, notes);
    }
  }, 240_000);

  it("the task lists: T1–T5 and a contact's tasks (C10), each task with a related contact in full", async () => {
    const contact = await created('/dev/api/contacts', worstContact(FILL));
    const due = NOW + 3600;
    const first = await created('/dev/api/tasks', { subject: FILL.repeat(TASK_SUBJECT_MAX), type: 'CALL', priority_type: 'HIGH', due, contacts: [contact] });
    const tasks = await copies(taskModel(ctx.connection) as unknown as Model<never>, first, COUNT, 'due');
    const lists: Array<[ListCall, number[]]> = [
      [{ label: 'T1', method: 'get', path: '/dev/api/tasks', item: 'task' }, tasks],
      [{ label: 'T2', method: 'get', path: '/dev/api/tasks/all', item: 'task' }, tasks],
      [{ label: 'T3', method: 'get', path: '/dev/api/tasks/pending/3650', item: 'task' }, tasks],
      [{ label: 'T4', method: 'get', path: '/dev/api/tasks/my/tasks', item: 'task' }, tasks],
      [{ label: 'T5', method: 'get', path: '/dev/api/tasks/based?type=CALL&pending=true', item: 'task' }, tasks],
      [{ label: 'C10', method: 'get', path: `/dev/api/contacts/${contact}/tasks/sort`, item: 'task' }, [...tasks].reverse()],
    ];
    for (const [list, expected] of lists) {
      await expectPageSizesRefused(list);
      for (const kind of ['json', 'xml'] as const) await walk(list, kind, expected);
    }
  }, 240_000);

  it("the event lists: E1 and a contact's events (E2), each event with a related contact in full", async () => {
    const contact = await created('/dev/api/contacts', worstContact(FILL));
    const first = await created('/dev/api/events', { title: FILL.repeat(EVENT_TITLE_MAX), start: NOW, end: NOW + 3600, contact_ids: [contact] });
    const events = await copies(eventModel(ctx.connection) as unknown as Model<never>, first, COUNT, 'start');
    for (const list of [
      { label: 'E1', method: 'get', path: `/dev/api/events?start=0&end=${NOW + 10 * 86_400}`, item: 'event' },
      { label: 'E2', method: 'get', path: `/dev/api/contacts/${contact}/events/sort`, item: 'event' },
    ] as ListCall[]) {
      await expectPageSizesRefused(list);
      for (const kind of ['json', 'xml'] as const) await walk(list, kind, events);
    }
  }, 240_000);
});

describe('the worst single record of each list fits a page', () => {
  it('the documented worst cases fit the budget with the list around them and a cursor', () => {
    for (const worst of [CONTACT_WORST_BYTES, NOTE_WORST_BYTES, TASK_WORST_BYTES, EVENT_WORST_BYTES, DEAL_WORST_BYTES]) {
      expect(worst.sent + CURSOR_BYTES + 1024).toBeLessThanOrEqual(PAGE_BUDGET_BYTES);
    }
  });

  async function sizes(path: string): Promise<Record<Kind, number>> {
    const json = await ctx.as(ann).get(path);
    const xml = await ctx.as(ann).get(path).set('Accept', 'application/xml');
    expect([path, json.status, xml.status]).toEqual([path, 200, 200]);
    return { json: Buffer.byteLength(json.text), xml: Buffer.byteLength(xml.text) };
  }

  it.each([
    ['json', '€'],
    ['xml', '&'],
  ] as const)(`records at every bound with ${MAX_RELATED_CONTACTS} related contacts in full, as %s (%s): each within its documented worst case; a list of them holds one or a few a page`, async (kind, fill) => {
    const contacts: number[] = [];
    for (let i = 0; i < MAX_RELATED_CONTACTS; i++) contacts.push(await created('/dev/api/contacts', worstContact(fill, `P${i}`)));
    const notes: number[] = [];
    const deals = Array.from({ length: 4 }, () => 0);
    for (let i = 0; i < deals.length; i++) deals[i] = (await h.createDeal(ann, track, { ...worstDealFields(fill), contact_ids: contacts })).id;
    for (let i = 0; i < 100; i++) notes.push(await created('/dev/api/notes', { subject: 's', description: 'd', deal_ids: [deals[0]] }));
    const note = await created('/dev/api/notes', { subject: fill.repeat(NOTE_SUBJECT_MAX), description: fill.repeat(NOTE_DESCRIPTION_MAX), contact_ids: contacts, deal_ids: [deals[1]] });
    const task = await created('/dev/api/tasks', { subject: fill.repeat(TASK_SUBJECT_MAX), type: 'CALL', priority_type: 'HIGH', due: NOW + 60, contacts, notes });
    await created('/dev/api/events', { title: fill.repeat(EVENT_TITLE_MAX), start: NOW, end: NOW + 60, contact_ids: contacts });
    const measured = {
      contact: (await sizes(`/dev/api/contacts/${contacts[0]}`))[kind],
      task: (await sizes(`/dev/api/tasks/${task}`))[kind],
      deal: (await sizes(`/dev/api/opportunity/${deals[0]}`))[kind], // the one 100 notes relate
    };
    // the larger of JSON and XML is the one that is the costliest for this fill
    expect(measured.contact).toBeGreaterThan(CONTACT_WORST_BYTES.sent / 2);
    expect(measured.contact).toBeLessThanOrEqual(CONTACT_WORST_BYTES.sent);
    expect(measured.task).toBeLessThanOrEqual(TASK_WORST_BYTES.sent);
    expect(measured.deal).toBeGreaterThan(DEAL_WORST_BYTES.sent / 2);
    expect(measured.deal).toBeLessThanOrEqual(DEAL_WORST_BYTES.sent);
    const noteList = await fetchPage({ label: 'N3', method: 'get', path: `/dev/api/contacts/${contacts[0]}/notes`, item: 'note' }, kind, PAGE_SIZE_MAX);
    expect(noteList.ids).toEqual([note]);
    expect(noteList.bytes).toBeLessThanOrEqual(NOTE_WORST_BYTES.sent);
    const eventList = await fetchPage({ label: 'E2', method: 'get', path: `/dev/api/contacts/${contacts[0]}/events/sort`, item: 'event' }, kind, PAGE_SIZE_MAX);
    expect(eventList.bytes).toBeLessThanOrEqual(EVENT_WORST_BYTES.sent);
    // sent back as fetched (the Java client's updateDeal; Python's json.dumps escapes every non-ASCII
    // character as \uXXXX): within the body limit of whole records, and stored unchanged
    const fetched = await ctx.as(ann).get(`/dev/api/opportunity/${deals[2]}`).set('Accept', ACCEPT[kind]);
    const body = kind === 'json' ? JSON.stringify(JSON.parse(fetched.text)).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : fetched.text;
    expect(Buffer.byteLength(body)).toBeGreaterThan(limitBytes('1mb'));
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(limitBytes(BODY_LIMITS.records));
    const before = await h.Deal().findById(deals[2]).lean();
    const sentBack = await ctx.as(ann).put('/dev/api/opportunity').set('Content-Type', ACCEPT[kind]).send(body);
    expect(sentBack.status).toBe(200);
    const after = await h.Deal().findById(deals[2]).lean();
    expect({ ...after, updated_time: 0 }).toEqual({ ...before, updated_time: 0 });
    // four such deals: a page of them holds what fits (one in XML), the cursors lead through all four
    const sizesOfPages = await walk(dealsList, kind, deals);
    expect(sizesOfPages.length).toBeGreaterThan(1);
    if (kind === 'xml') expect(sizesOfPages).toEqual([1, 1, 1, 1]);
  }, 240_000);
});
