import type { Model } from 'mongoose';
import { eventModel } from '../src/events/event.model';
import { EVENT_TITLE_MAX } from '../src/events/event.schemas';
import { noteModel } from '../src/notes/note.model';
import { NOTE_DESCRIPTION_MAX, NOTE_SUBJECT_MAX } from '../src/notes/note.schemas';
import { taskModel } from '../src/tasks/task.model';
import { TASK_SUBJECT_MAX } from '../src/tasks/task.schemas';
import { dealHelpers, type Track } from './deal-helpers';
import { NOW, pageWalk, worstContact, worstDealFields, type ListCall } from './page-walk';
import { company, setupCrmApp, type TestUser } from './setup-app';

/**
 * Every list of the table takes page_size up to PAGE_SIZE_MAX (more, or 0, is a 400 naming it) and
 * ends its pages at the byte budget, JSON and XML, through records at their bounds with their
 * related contacts in full; the cursors lead through every record once, in order.
 */
const ctx = setupCrmApp();
const h = dealHelpers(ctx);
let ann: TestUser;
let track: Track;
const { created, copies, walk, expectPageSizesRefused } = pageWalk(ctx, () => ann);

beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
  track = await h.defaultTrack(ann);
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
      [{ label: 'C1', method: 'get', path: '/dev/api/contacts', item: 'contact' }, await inOrder([acme, ...persons, ...firms])],
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
      { label: 'D1', method: 'get', path: '/dev/api/opportunity', item: 'opportunity' },
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

