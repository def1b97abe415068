import { limitBytes } from '@lib/http';
import type { Model } from 'mongoose';
import { CONTACT_WORST_BYTES } from '../src/contacts/contact.paging';
import { MAX_RELATED_CONTACTS } from '../src/contacts/contact-links';
import { DEAL_WORST_BYTES } from '../src/deals/deal.paging';
import { DOCUMENT_WORST_BYTES } from '../src/documents/document.paging';
import { TICKET_NOTE_WORST_BYTES, TICKET_WORST_BYTES } from '../src/tickets/ticket.paging';
import { EVENT_WORST_BYTES } from '../src/events/event.paging';
import { EVENT_TITLE_MAX } from '../src/events/event.schemas';
import { BODY_LIMITS } from '../src/http/body-limits';
import { CURSOR_BYTES, PAGE_BUDGET_BYTES } from '../src/http/page-budget';
import { NOTE_WORST_BYTES } from '../src/notes/note.paging';
import { noteModel } from '../src/notes/note.model';
import { NOTE_DESCRIPTION_MAX, NOTE_SUBJECT_MAX } from '../src/notes/note.schemas';
import { PAGE_SIZE_MAX } from '../src/paging';
import { TASK_WORST_BYTES } from '../src/tasks/task.paging';
import { TASK_SUBJECT_MAX } from '../src/tasks/task.schemas';
import { dealHelpers, type Track } from './deal-helpers';
import { ACCEPT, NOW, pageWalk, worstContact, worstDealFields, type Kind, type ListCall } from './page-walk';
import { setupCrmApp, type TestUser } from './setup-app';

/**
 * Pages end at their byte budget, not at a refused page size: a page of PAGE_SIZE_MAX records at
 * their bounds ends before the record that would take the answer, as sent (JSON or XML), over
 * PAGE_BUDGET_BYTES, with the cursor on its last record; the cursors lead through every record
 * once, in order. The worst record of each list fits a page. Every other list:
 * page-budget-lists.spec.ts.
 */
const ctx = setupCrmApp();
const h = dealHelpers(ctx);
let ann: TestUser;
let track: Track;
const { created, copies, fetchPage, walk } = pageWalk(ctx, () => ann);

beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
  track = await h.defaultTrack(ann);
});

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
  }, 240_000);

  it(`deals (D1): pages end at the budget, the cursors lead through all ${PAGE_SIZE_MAX} once, in order`, async () => {
    const first = (await h.createDeal(ann, track, worstDealFields(fill))).id;
    const ids = await copies(h.Deal() as unknown as Model<never>, first, PAGE_SIZE_MAX);
    const sizes = await walk(dealsList, kind, ids);
    expect(sizes.length).toBeGreaterThan(1);
  }, 240_000);
});

describe('the worst single record of each list fits a page', () => {
  it('the documented worst cases fit the budget with the list around them and a cursor', () => {
    for (const worst of [CONTACT_WORST_BYTES, NOTE_WORST_BYTES, TASK_WORST_BYTES, EVENT_WORST_BYTES, DEAL_WORST_BYTES, DOCUMENT_WORST_BYTES, TICKET_WORST_BYTES, TICKET_NOTE_WORST_BYTES]) {
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
    notes.push(...(await copies(noteModel(ctx.connection) as unknown as Model<never>, await created('/dev/api/notes', { subject: 's', description: 'd', deal_ids: [deals[0]] }), 100)));
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
