import { routeTable } from '@lib/http';
import { xmlNamesOf } from '@lib/routing';
import { z } from '@lib/validation';
import { xmlOf } from './activity-helpers';
import { dealHelpers } from './deal-helpers';
import { company, person, setupCrmApp, type TestUser } from './setup-app';

/**
 * Every route of /dev/api that answers a body asked once for XML, on an account holding one record
 * of each kind, so that each answers 2xx with a body: the response check (jest setup) validates
 * each XML answer against its route's strict schema, and this test that it is XML under the root
 * element the schema names. The routes come from the app's own table: a new route is asked too,
 * and fails here until it is given its values below. (Every route's JSON answers are checked by
 * the other suites, which ask for JSON by default.)
 */
const ctx = setupCrmApp();
const h = dealHelpers(ctx);

const PHONE = '+1 555 0100';
const DAY = 86_400;

let ann: TestUser;
const ids = { company: 0, person: 0, deal: 0, task: 0, note: 0, event: 0, track: 0, webhook: 0, customField: 0, source: 0, document: 0, ticket: 0, group: 0, workflow: 0 };
let delivery = '';

beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test', { admin: true }); // admins manage webhooks
  const created = async (path: string, body: object) => {
    const res = await ctx.as(ann).post(path).send(body);
    expect(res.status).toBe(200);
    return res.body.id as number;
  };
  ids.company = await created('/dev/api/contacts', company('Acme Co'));
  ids.person = await created('/dev/api/contacts', {
    ...person('Al', 'al@acme.test'),
    contact_company_id: ids.company,
    properties: [...person('Al', 'al@acme.test').properties, { type: 'SYSTEM', name: 'phone', value: PHONE }],
  });
  const track = await h.defaultTrack(ann);
  ids.deal = (await h.createDeal(ann, track, { contact_ids: [ids.person] })).id;
  ids.note = await created('/dev/api/notes', { subject: 'S', description: 'D', contact_ids: [ids.person], deal_ids: [ids.deal] });
  const today = Math.floor(Date.now() / 1000 / DAY) * DAY + DAY / 2;
  ids.task = await created('/dev/api/tasks', { subject: 'Call', type: 'CALL', priority_type: 'HIGH', due: today, contacts: [ids.person] });
  ids.event = await created('/dev/api/events', { title: 'Meet', start: today, end: today + 3600, contact_ids: [ids.person] });
  ids.track = (await h.createTrack(ann, 'Sales', 'Open,Won')).id;
  ids.webhook = await created('/dev/api/webhooks', { url: 'https://hooks.example.com/crm', events: ['track.deleted'] }); // (no write of this file records an event)
  const test = await ctx.as(ann).post(`/dev/api/webhooks/${ids.webhook}/test`);
  expect(test.status).toBe(202);
  delivery = test.body.id;
  ids.customField = await created('/dev/api/custom-fields', { field_label: 'Plan', field_type: 'LIST', field_data: 'Basic;Pro' });
  ids.source = await created('/dev/api/categories', { label: 'Fair', entity_type: 'DEAL_SOURCE' });
  ids.document = await created('/dev/api/documents', { url: 'https://files.example/a.pdf', contact_ids: [ids.person], deal_ids: [ids.deal] });
  ids.group = (await ctx.as(ann).get('/dev/api/tickets/groups')).body[0].id;
  ids.ticket = await created('/dev/api/tickets/new-ticket', ticketFields());
  ids.workflow = await created('/dev/api/workflows', { name: 'Welcome', steps: [{ type: 'WAIT', duration: 1, unit: 'DAYS' }, { type: 'ADD_TAG', tag: 'Lead' }] });
  const enrolled = await ctx.as(ann).post('/dev/api/campaigns/enroll/email').type('form').send({ email: 'al@acme.test', 'workflow-id': String(ids.workflow) });
  expect(enrolled.status).toBe(200);
});

const ticketFields = () => ({ requester_name: 'Al', requester_email: 'al@acme.test', subject: 'Help', priority: 'LOW', status: 'NEW', groupID: ids.group, html_text: '<p>Hi</p>' });

/** The value of each path parameter, by route (the same name means different records on different routes). */
function pathValue(path: string, name: string): string {
  if (name === 'email') return 'al@acme.test';
  if (name === 'phone') return encodeURIComponent(PHONE);
  if (name === 'companyId') return String(ids.company);
  if (name === 'contact_id') return String(ids.person);
  if (name === 'days') return '0';
  if (name === 'id' && path.startsWith('/dev/api/opportunity/')) return String(ids.deal);
  if (name === 'id' && path.startsWith('/dev/api/tasks/')) return String(ids.task);
  if (name === 'id' && path.startsWith('/dev/api/contacts/')) return String(ids.person);
  if (name === 'id' && path.startsWith('/dev/api/webhooks/')) return String(ids.webhook);
  if (name === 'delivery_id') return delivery;
  if (name === 'id' && path.startsWith('/dev/api/custom-fields/')) return String(ids.customField);
  if (name === 'id' && path.startsWith('/dev/api/documents/')) return String(ids.document);
  if (name === 'contactId') return String(ids.person);
  if (name === 'id' && path.startsWith('/dev/api/tickets/')) return String(ids.ticket);
  if (name === 'ticketId') return String(ids.ticket);
  if (name === 'id' && path.startsWith('/dev/api/workflows/')) return String(ids.workflow);
  if (name === 'email' || path.includes('/email/')) return 'al@acme.test';
  throw new Error(`xml-answers: no value for :${name} of ${path}`);
}

/** Query strings the routes that require one get. */
const QUERIES: Record<string, string> = {
  '/dev/api/search': 'q=Al',
  '/dev/api/events': 'start=0&end=4000000000',
  '/dev/api/opportunity/byPipeline/based': 'pipeline_id=0',
  '/dev/api/opportunity/based': 'pipeline_id=0',
  '/dev/api/custom-fields/scope/position': 'scope=CONTACT',
  '/dev/api/custom-fields/scope': 'scope=CONTACT',
  '/dev/api/categories': 'entity_type=DEAL_SOURCE',
  '/dev/api/tickets/filter': 'filter_id=1',
};

const getRoutes = () => routeTable(ctx.app).filter((route) => route.method === 'get' && route.path.startsWith('/dev/api'));

it('every GET route answers XML that its strict schema accepts, under the root element the schema names', async () => {
  const asked: string[] = [];
  for (const route of getRoutes()) {
    const path = route.path.replace(/:(\w+)/g, (_, name: string) => pathValue(route.path, name));
    const query = QUERIES[route.path];
    const res = await ctx
      .as(ann)
      .get(query ? `${path}?${query}` : path)
      .set('Accept', 'application/xml');
    expect({ route: route.path, status: res.status }).toEqual({ route: route.path, status: 200 });
    const root = xmlNamesOf(route.responses[200]?.schema)?.root;
    expect({ route: route.path, root: Object.keys(xmlOf(res)) }).toEqual({ route: route.path, root: [root] });
    asked.push(route.path);
  }
  expect(asked).toEqual(getRoutes().map((route) => route.path));
  // the table is the app's (not empty, not another app's): lists, single records and the milestone view
  expect(asked).toEqual(expect.arrayContaining(['/dev/api/contacts', '/dev/api/contacts/:id', '/dev/api/opportunity/byMilestone', '/dev/api/tasks/:id', '/dev/api/events']));
});

/** The root elements a response schema names: its own, or each of its options' (a list of contacts or of deals). */
function rootsOf(schema: z.ZodType | undefined): string[] {
  const own = xmlNamesOf(schema)?.root;
  if (own) return [own];
  return schema instanceof z.ZodUnion ? (schema.options as z.ZodType[]).flatMap(rootsOf) : [];
}

const FORM = 'application/x-www-form-urlencoded';
const dealFields = () => ({ name: 'Deal', expected_value: 10, pipeline_id: ids.track, milestone: 'Open', close_date: 1_900_000_000, owner_id: ann.id, contact_ids: [ids.person] });
const taskFields = { subject: 'Call', type: 'CALL', priority_type: 'HIGH', due: 1_900_000_000 };
const filterForm = (type: string) => `filterJson=${encodeURIComponent(JSON.stringify({ rules: [], or_rules: [], contact_type: type }))}`;

/** A request of each write route that answers a body, by `METHOD path`: its url and body (a form when `type` is given); the deletes delete a deal of their own. */
const WRITES: Record<string, () => Promise<{ url?: string; body: object | string; type?: string }> | { url?: string; body: object | string; type?: string }> = {
  'POST /dev/api/contacts': () => ({ body: person('Bo', 'bo@acme.test') }),
  'PUT /dev/api/contacts': () => ({ body: { id: ids.person, lead_score: 3 } }),
  'POST /dev/api/contacts/search/email': () => ({ body: `email_ids=${encodeURIComponent('["al@acme.test"]')}`, type: FORM }),
  'POST /dev/api/contacts/add-score': () => ({ body: 'email=al%40acme.test&score=2', type: FORM }),
  'POST /dev/api/contacts/add/property': () => ({ url: '/dev/api/contacts/add/property?email=al%40acme.test', body: { name: 'title', value: 'CEO' } }),
  'POST /dev/api/contacts/change-owner': () => ({ body: `owner_email=ann%40acme.test&contact_id=${ids.person}`, type: FORM }),
  'PUT /dev/api/contacts/edit-properties': () => ({ body: { id: ids.person, properties: [{ type: 'SYSTEM', name: 'title', value: 'CTO' }] } }),
  'PUT /dev/api/contacts/edit/tags': () => ({ body: { id: ids.person, tags: ['vip'] } }),
  'PUT /dev/api/contacts/delete/tags': () => ({ body: { id: ids.person, tags: ['vip'] } }),
  'PUT /dev/api/contacts/edit/lead-score': () => ({ body: { id: ids.person, lead_score: 7 } }),
  'PUT /dev/api/contacts/edit/add-star': () => ({ body: { id: ids.person, star_value: 4 } }),
  'POST /dev/api/contacts/companies/list': () => ({ body: 'page_size=5', type: FORM }),
  'POST /dev/api/milestone/pipelines': () => ({ body: { name: 'Hiring', milestone: 'New,Hired' } }),
  'PUT /dev/api/milestone/pipelines': () => ({ body: { id: ids.track, name: 'Sales', milestone: 'Open,Won,Lost' } }),
  'POST /dev/api/opportunity/bulk': async () => ({ body: { ids: [(await h.createDeal(ann, await h.defaultTrack(ann))).id] } }),
  'PUT /dev/api/opportunity/partial-update': () => ({ body: { id: ids.deal, probability: 50 } }),
  'POST /dev/api/opportunity/email/:email': () => ({ body: dealFields() }),
  'POST /dev/api/opportunity': () => ({ body: dealFields() }),
  'PUT /dev/api/opportunity': () => ({ body: { ...dealFields(), id: ids.deal } }),
  'DELETE /dev/api/opportunity/:id': async () => ({ url: `/dev/api/opportunity/${(await h.createDeal(ann, await h.defaultTrack(ann))).id}`, body: {} }),
  'POST /dev/api/notes': () => ({ body: { subject: 'N', description: 'D', contact_ids: [ids.person] } }),
  'PUT /dev/api/notes': () => ({ body: { id: ids.note, subject: 'N2' } }),
  'POST /dev/api/opportunity/deals/notes': () => ({ body: { subject: 'N', description: 'D', deal_ids: [ids.deal] } }),
  'PUT /dev/api/opportunity/deals/notes': () => ({ body: { id: ids.note, subject: 'N3', deal_ids: [ids.deal] } }),
  'POST /dev/api/tasks': () => ({ body: { ...taskFields, contacts: [ids.person] } }),
  'POST /dev/api/tasks/email/:email': () => ({ body: taskFields }),
  'PUT /dev/api/tasks': () => ({ body: { ...taskFields, id: ids.task, subject: 'Call back' } }),
  'PUT /dev/api/tasks/partial-update': () => ({ body: { id: ids.task, progress: 50 } }),
  'POST /dev/api/events': () => ({ body: { title: 'E', start: 1_900_000_000, end: 1_900_003_600, contact_ids: [ids.person] } }),
  'PUT /dev/api/events': () => ({ body: { id: ids.event, title: 'E2' } }),
  // deals too: the next test
  'POST /dev/api/filters/filter/dynamic-filter': () => ({ body: filterForm('PERSON'), type: FORM }),
  'POST /dev/api/webhooks': () => ({ body: { url: 'https://hooks.example.com/other', events: ['deal.deleted'] } }),
  'PUT /dev/api/webhooks/:id': () => ({ body: { description: 'CRM sync' } }),
  'POST /dev/api/webhooks/:id/rotate-secret': () => ({ body: {} }),
  'POST /dev/api/webhooks/:id/test': () => ({ body: {} }),
  'POST /dev/api/webhooks/:id/deliveries/:delivery_id/replay': async () => {
    // an ended delivery of an enabled webhook: disabling cancels the pending test, enabling again allows its replay
    await ctx.as(ann).put(`/dev/api/webhooks/${ids.webhook}`).send({ enabled: false });
    await ctx.as(ann).put(`/dev/api/webhooks/${ids.webhook}`).send({ enabled: true });
    return { body: {} };
  },
  'POST /dev/api/deal/filters/filter/dynamic-filter': () => ({ body: filterForm('OPPORTUNITY'), type: FORM }),
  'PUT /dev/api/opportunity/partial-update/delete-contact': () => ({ body: { id: ids.deal, contact_ids: [ids.person] } }),
  'POST /dev/api/custom-fields': () => ({ body: { field_label: 'Seats', field_type: 'NUMBER' } }),
  'PUT /dev/api/custom-fields': () => ({ body: { id: ids.customField, field_label: 'Plan', field_type: 'LIST', field_data: 'Basic;Pro;Team' } }),
  'POST /dev/api/categories': () => ({ body: { label: 'Partner', entity_type: 'DEAL_SOURCE' } }),
  'PUT /dev/api/categories': () => ({ body: { id: ids.source, label: 'Trade fair' } }),
  'POST /dev/api/documents': () => ({ body: { url: 'https://files.example/b.pdf', contact_ids: [ids.person] } }),
  'PUT /dev/api/documents': () => ({ body: { id: ids.document, url: 'https://files.example/c.pdf' } }),
  'POST /dev/api/tickets/new-ticket': () => ({ body: ticketFields() }),
  'POST /dev/api/notes/:ticketId': () => ({ body: { html_text: 'On it', note_type: 'PUBLIC' } }),
  'DELETE /dev/api/tickets/:id': async () => {
    const res = await ctx.as(ann).post('/dev/api/tickets/new-ticket').send(ticketFields());
    return { url: `/dev/api/tickets/${res.body.id}`, body: {} };
  },
  'POST /dev/api/workflows': () => ({ body: { name: 'Follow-up', steps: [{ type: 'ADD_SCORE', score: 5 }] } }),
  'PUT /dev/api/workflows': () => ({ body: { id: ids.workflow, name: 'Welcome 2', steps: [{ type: 'ADD_TAG', tag: 'Lead' }] } }),
  'POST /dev/api/campaigns/enroll/email': () => ({ body: `email=al%40acme.test&workflow-id=${ids.workflow}`, type: FORM }),
};

/** The write routes whose success has a body. */
const writeRoutes = () =>
  routeTable(ctx.app).filter(
    (route) => route.method !== 'get' && route.path.startsWith('/dev/api') && Object.entries(route.responses).some(([status, answer]) => status.startsWith('2') && answer.schema),
  );

it('every write route that answers a body answers XML that its strict schema accepts', async () => {
  const asked: string[] = [];
  for (const route of writeRoutes()) {
    const key = `${route.method.toUpperCase()} ${route.path}`;
    const write = WRITES[key];
    if (!write) throw new Error(`xml-answers: no request for ${key}`);
    const { url, body, type } = await write();
    const path = url ?? route.path.replace(/:(\w+)/g, (_, name: string) => pathValue(route.path, name));
    const test = ctx.as(ann)[route.method as 'post' | 'put' | 'delete'](path).set('Accept', 'application/xml');
    const res = await (type ? test.set('Content-Type', type) : test).send(body);
    const status = Number(Object.entries(route.responses).find(([code, answer]) => code.startsWith('2') && answer.schema)?.[0]);
    expect({ key, status: res.status }).toEqual({ key, status });
    const [root] = Object.keys(xmlOf(res));
    expect({ key, named: rootsOf(route.responses[status]?.schema).includes(root) }).toEqual({ key, named: true });
    asked.push(key);
  }
  expect(asked.sort()).toEqual(Object.keys(WRITES).sort());
});

it('the dynamic filter answers contacts and deals in XML, each under its own names', async () => {
  for (const [type, root] of [
    ['PERSON', 'contacts'],
    ['OPPORTUNITY', 'collection'],
  ]) {
    const res = await ctx.as(ann).post('/dev/api/filters/filter/dynamic-filter').set('Content-Type', FORM).set('Accept', 'application/xml').send(filterForm(type));
    expect({ type, status: res.status }).toEqual({ type, status: 200 });
    expect(Object.keys(xmlOf(res))).toEqual([root]);
  }
});
