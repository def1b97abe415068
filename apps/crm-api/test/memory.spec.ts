import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { expectSurvivesBurst, sendRaw, useProductionApp, worstRequests, type OpenApiPaths, type RawRequest } from '@lib/testing';
import { limitBytes } from '@lib/http';
import { MAX_PROPERTIES, PROPERTY_TEXT_MAX, TAG_LENGTH_MAX, TAG_MAX, WIDGET_PROPERTIES_MAX } from '../src/contacts/contact-rules';
import { MAX_RELATED_CONTACTS } from '../src/contacts/contact-links';
import { CUSTOM_NAME_MAX, CUSTOM_TEXT_MAX, DEAL_DESCRIPTION_MAX, MAX_CUSTOM_DATA } from '../src/deals/deal.schemas';
import { BODY_LIMITS } from '../src/http/body-limits';
import { CONTACT_WORST_BYTES } from '../src/contacts/contact.paging';
import { PAGE_BUDGET_BYTES } from '../src/http/page-budget';
import { NOTE_DESCRIPTION_MAX } from '../src/notes/note.schemas';
import { PAGE_SIZE_MAX } from '../src/paging';
import { TICKET_HTML_MAX } from '../src/tickets/ticket.schemas';

/**
 * crm-api as production runs it (bundled, NODE_ENV=production, the production heap flags: a 128 MB
 * heap) hit in parallel with the worst request every route accepts — pages of PAGE_SIZE_MAX asked
 * of lists of items at their bounds (each page filled to its byte budget), XML; the largest legal
 * bodies; malformed bodies at the app's body limit (JSON, form, XML) — stays alive, answers every
 * request (excess heavy work with 503), and ends with /readyz 200.
 */
const ADMIN = { email: 'admin@memory.test', key: randomBytes(24).toString('hex') };
const AUTH = `Basic ${Buffer.from(`${ADMIN.email}:${ADMIN.key}`).toString('base64')}`;
const BODY_LIMIT = limitBytes(BODY_LIMITS.records);
/** Items at their bounds, `&` in XML (5 bytes): more of each list than one page holds. */
const PAGE_FILLING = Math.ceil(PAGE_BUDGET_BYTES / CONTACT_WORST_BYTES.sent) + 5;

const QUERY_VALUES: Record<string, string> = { q: '1', pipeline_id: '1', start: '0', end: '4000000000', email: 'nobody%40memory.test', filter_id: '1' };

const production = useProductionApp('crm-api', 'CRM_MONGO_URL', {
  CRM_ADMIN_EMAIL: ADMIN.email,
  CRM_ADMIN_API_KEY: ADMIN.key,
  CRM_DOMAIN: 'memory',
  CRM_CURSOR_SECRET: randomBytes(24).toString('hex'),
});
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
afterAll(() => agent.destroy());

const send = (req: RawRequest) => sendRaw(production.app.port, { ...req, headers: { Authorization: AUTH, ...req.headers } }, agent);
const json = (method: string, url: string, body: unknown) => send({ method, url, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

function worstContact(i: number) {
  const names = Array.from({ length: MAX_PROPERTIES - 1 }, (_, p) => `p${p}`);
  const valueLength = Math.floor((PROPERTY_TEXT_MAX - 'first_name'.length - names.join('').length) / MAX_PROPERTIES);
  return {
    properties: [{ type: 'SYSTEM', name: 'first_name', value: `${i}`.padEnd(valueLength, '&') }, ...names.map((name) => ({ type: 'CUSTOM', name, value: '&'.repeat(valueLength) }))],
    tags: Array.from({ length: TAG_MAX }, (_, t) => `T${t}`.padEnd(TAG_LENGTH_MAX, 'x')),
    widget_properties: '&'.repeat(WIDGET_PROPERTIES_MAX),
  };
}

async function created(res: Promise<{ status: number; text: string }>): Promise<number> {
  const answer = await res;
  if (answer.status !== 200) throw new Error(`seed failed: ${answer.status} ${answer.text.slice(0, 300)}`);
  return JSON.parse(answer.text).id;
}

it('survives a burst of the worst request of every route, in parallel, and stays ready', async () => {
  const started = Date.now();
  // items at their bounds for the pages to carry: more than a page of contacts and notes; tasks,
  // events and deals relating 10 contacts in full (a page holds one or two of them)
  const contacts: number[] = [];
  for (let i = 0; i < PAGE_FILLING; i++) contacts.push(await created(json('post', '/dev/api/contacts', worstContact(i))));
  const related = contacts.slice(0, MAX_RELATED_CONTACTS);
  const track = JSON.parse((await send({ method: 'get', url: '/dev/api/milestone/pipelines', headers: { Accept: 'application/json' } })).text)[0];
  const owner = JSON.parse((await send({ method: 'get', url: '/dev/api/users/current-user', headers: { Accept: 'application/json' } })).text).id;
  const value = Math.floor((CUSTOM_TEXT_MAX - MAX_CUSTOM_DATA * CUSTOM_NAME_MAX) / MAX_CUSTOM_DATA);
  const custom_data = Array.from({ length: MAX_CUSTOM_DATA }, (_, i) => ({ name: `${i}`.padEnd(CUSTOM_NAME_MAX, '&'), value: '&'.repeat(value) }));
  for (let i = 0; i < 3; i++) {
    await created(json('post', '/dev/api/tasks', { subject: '&'.repeat(1000), type: 'CALL', priority_type: 'HIGH', due: 1_900_000_000, contacts: related }));
    await created(json('post', '/dev/api/events', { title: '&'.repeat(1000), start: 1_900_000_000, end: 1_900_003_600, contact_ids: related }));
    const deal = { name: '&'.repeat(500), description: '&'.repeat(DEAL_DESCRIPTION_MAX), custom_data, contact_ids: related, expected_value: 1, close_date: 1_900_000_000 };
    await created(json('post', '/dev/api/opportunity', { ...deal, pipeline_id: track.id, milestone: track.milestones.split(',')[0], owner_id: owner }));
  }
  for (let i = 0; i < PAGE_FILLING; i++) {
    await created(json('post', '/dev/api/notes', { subject: '&'.repeat(1000), description: '&'.repeat(NOTE_DESCRIPTION_MAX), contact_ids: related }));
  }

  // help-desk tickets and their notes at their bounds: three 64 Ki texts each (`&` escaped once sanitised, again in XML)
  const group = JSON.parse((await send({ method: 'get', url: '/dev/api/tickets/groups', headers: { Accept: 'application/json' } })).text)[0].id;
  const html = '&'.repeat(Math.floor(TICKET_HTML_MAX / 5));
  let ticket = 0;
  for (let i = 0; i < 12; i++) {
    ticket = await created(json('post', '/dev/api/tickets/new-ticket', { requester_name: 'R', requester_email: 'requester@memory.test', subject: '&'.repeat(1000), priority: 'LOW', status: 'OPEN', groupID: group, html_text: html }));
  }
  for (let i = 0; i < 12; i++) expect((await json('post', `/dev/api/notes/${ticket}`, { html_text: html })).status).toBe(200);
  console.info(`seeded in ${Date.now() - started} ms`);
  const doc = JSON.parse((await send({ method: 'get', url: '/openapi.json', headers: {} })).text) as OpenApiPaths;
  const burst = worstRequests(doc, {
    prefix: '/dev/api',
    bodyLimit: BODY_LIMIT,
    // XML: the larger answer (escaped text), and the slower to build
    accept: 'application/xml',
    pathValue: (name) => (name.includes('email') ? 'nobody%40memory.test' : String(name === 'ticketId' ? ticket : contacts[0])),
    queryValue: (name) => QUERY_VALUES[name],
  });
  // the largest legal bodies too
  for (let i = 0; i < 10; i++) burst.push({ method: 'post', url: '/dev/api/contacts', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(worstContact(1000 + i)) });
  expect(burst.length).toBeGreaterThan(60);

  const summary = await expectSurvivesBurst(production.app, burst, { Authorization: AUTH });
  // it still serves a full page
  expect((await send({ method: 'get', url: `/dev/api/contacts?page_size=${PAGE_SIZE_MAX}`, headers: {} })).status).toBe(200);
  console.info(`memory burst: ${burst.length} requests, statuses ${JSON.stringify(summary)}`);
}, 300_000);
