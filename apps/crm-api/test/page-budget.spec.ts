import { MAX_PROPERTIES, PROPERTY_TEXT_MAX, TAG_LENGTH_MAX, TAG_MAX, WIDGET_PROPERTIES_MAX } from '../src/contacts/contact-rules';
import { MAX_RELATED_CONTACTS } from '../src/contacts/contact-links';
import { CUSTOM_VALUE_MAX, MAX_CUSTOM_DATA } from '../src/deals/deal.schemas';
import { NOTE_DESCRIPTION_MAX } from '../src/notes/note.schemas';
import { PAGE_BUDGET_BYTES, PAGE_MAX, WORST_ITEM_BYTES } from '../src/http/page-budget';
import { dealHelpers } from './deal-helpers';
import { setupCrmApp, type TestUser } from './setup-app';

/**
 * Items built at every stored bound, in the costliest characters (`€` is 3 UTF-8 bytes in JSON, `&`
 * is 5 in XML), are no larger than WORST_ITEM_BYTES as sent, so a page of PAGE_MAX items stays
 * within PAGE_BUDGET_BYTES.
 */
const ctx = setupCrmApp();
const h = dealHelpers(ctx);
let ann: TestUser;

beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
});

const FILLS = ['€', '&'];

function worstContact(fill: string, i: number) {
  const names = Array.from({ length: MAX_PROPERTIES - 1 }, (_, p) => `p${p}`);
  const nameText = 'first_name'.length + names.join('').length;
  const valueLength = Math.floor((PROPERTY_TEXT_MAX - nameText) / MAX_PROPERTIES);
  return {
    type: 'PERSON',
    properties: [
      { type: 'SYSTEM', name: 'first_name', value: `${i}`.padEnd(valueLength, fill) },
      ...names.map((name) => ({ type: 'CUSTOM', name, value: fill.repeat(valueLength) })),
    ],
    tags: Array.from({ length: TAG_MAX }, (_, t) => `T${t}`.padEnd(TAG_LENGTH_MAX, 'x')),
    widget_properties: fill.repeat(WIDGET_PROPERTIES_MAX),
  };
}

async function sizes(path: string): Promise<number> {
  const json = await ctx.as(ann).get(path);
  const xml = await ctx.as(ann).get(path).set('Accept', 'application/xml');
  expect([path, json.status, xml.status]).toEqual([path, 200, 200]);
  return Math.max(Buffer.byteLength(json.text), Buffer.byteLength(xml.text));
}

async function worstContacts(fill: string, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await ctx.as(ann).post('/dev/api/contacts').send(worstContact(fill, i));
    expect(res.status).toBe(200);
    ids.push(res.body.id);
  }
  return ids;
}

it('each list maximum times its worst item fits the page budget', () => {
  for (const list of ['contacts', 'notes', 'tasks', 'events', 'deals'] as const) {
    const item = WORST_ITEM_BYTES[list === 'contacts' ? 'contact' : (list.slice(0, -1) as 'note' | 'task' | 'event' | 'deal')];
    expect(PAGE_MAX[list] * item).toBeLessThanOrEqual(PAGE_BUDGET_BYTES);
  }
});

describe.each(FILLS)('a contact at its bounds, text of %s', (fill) => {
  it('is at most WORST_ITEM_BYTES.contact as JSON and as XML', async () => {
    const [id] = await worstContacts(fill, 1);
    const bytes = await sizes(`/dev/api/contacts/${id}`);
    expect(bytes).toBeGreaterThan(WORST_ITEM_BYTES.contact / 4);
    expect(bytes).toBeLessThanOrEqual(WORST_ITEM_BYTES.contact);
  });
});

it('a note, a task, an event and a deal at their bounds (relating the most contacts), in both costliest texts', async () => {
  const track = await h.defaultTrack(ann);
  const deals: number[] = [];
  for (let i = 0; i < 100; i++) deals.push((await h.createDeal(ann, track)).id);
  const notes: number[] = [];
  for (let i = 0; i < 100; i++) {
    const res = await ctx.as(ann).post('/dev/api/notes').send({ subject: 's', description: 'd', deal_ids: [deals[0]] });
    expect(res.status).toBe(200);
    notes.push(res.body.id);
  }
  for (const fill of FILLS) {
    const contacts = await worstContacts(fill, MAX_RELATED_CONTACTS);
    const note = await ctx.as(ann).post('/dev/api/notes').send({ subject: fill.repeat(1000), description: fill.repeat(NOTE_DESCRIPTION_MAX), contact_ids: contacts, deal_ids: deals });
    expect(note.status).toBe(200);
    const task = await ctx.as(ann).post('/dev/api/tasks').send({ subject: fill.repeat(1000), type: 'CALL', priority_type: 'HIGH', due: 1_900_000_000, contacts, notes });
    expect(task.status).toBe(200);
    const event = await ctx.as(ann).post('/dev/api/events').send({ title: fill.repeat(1000), start: 1_900_000_000, end: 1_900_003_600, contact_ids: contacts });
    expect(event.status).toBe(200);
    const custom_data = Array.from({ length: MAX_CUSTOM_DATA }, (_, i) => ({ name: `${i}`.padEnd(100, fill), value: fill.repeat(CUSTOM_VALUE_MAX) }));
    const deal = await h.createDeal(ann, track, { name: fill.repeat(500), description: fill.repeat(10_000), custom_data, contact_ids: contacts });
    // the first deal is in 100 notes; this one in none: its note ids are measured on the first
    expect(await sizes(`/dev/api/contacts/${contacts[0]}/notes`)).toBeLessThanOrEqual(WORST_ITEM_BYTES.note);
    expect(await sizes(`/dev/api/tasks/${task.body.id}`)).toBeLessThanOrEqual(WORST_ITEM_BYTES.task);
    expect(event.body.id).toEqual(expect.any(Number));
    expect(await sizes(`/dev/api/contacts/${contacts[0]}/events/sort`)).toBeLessThanOrEqual(WORST_ITEM_BYTES.event);
    expect(await sizes(`/dev/api/opportunity/${deal.id}`)).toBeLessThanOrEqual(WORST_ITEM_BYTES.deal);
  }
  expect(await sizes(`/dev/api/opportunity/${deals[0]}`)).toBeLessThan(WORST_ITEM_BYTES.deal);
}, 180_000);
