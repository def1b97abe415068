import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleApp, sendRaw, startAppProcess, type AppProcess, type RawRequest } from '@lib/http/testing';
import { SERVICE_NODE_FLAGS } from '@lib/services';
import ConnectionString from 'mongodb-connection-string-url';
import { MAX_PROPERTIES, PROPERTY_TEXT_MAX, TAG_LENGTH_MAX, TAG_MAX, WIDGET_PROPERTIES_MAX } from '../src/contacts/contact-rules';
import { MAX_RELATED_CONTACTS } from '../src/contact-links';
import { PAGE_MAX } from '../src/page-budget';

/**
 * crm-api as production runs it (bundled, NODE_ENV=production, the production heap flags: a 128 MB
 * heap) hit in parallel with the worst request every route accepts — full pages of items at their
 * bounds, JSON and XML; the largest legal bodies; malformed bodies at the 1 MB body limit — stays
 * alive, answers every request (excess heavy work with 503), and ends with /readyz 200.
 */
const ADMIN = { email: 'admin@memory.test', key: 'memory-test-admin-key-5f0c2a9e81d4b7c3' };
const AUTH = `Basic ${Buffer.from(`${ADMIN.email}:${ADMIN.key}`).toString('base64')}`;
const BODY_LIMIT = 1024 * 1024;

let dir: string;
let app: AppProcess;
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

const send = (req: RawRequest) => sendRaw(app.port, { ...req, headers: { Authorization: AUTH, ...req.headers } }, agent);
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

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'crm-memory-'));
  const { main } = await bundleApp('crm-api', dir);
  const url = new ConnectionString(process.env.TEST_MONGO_URL!);
  url.pathname = `/memory_${randomBytes(4).toString('hex')}`;
  app = await startAppProcess(
    main,
    {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      CRM_MONGO_URL: url.toString(),
      CRM_ADMIN_EMAIL: ADMIN.email,
      CRM_ADMIN_API_KEY: ADMIN.key,
      CRM_DOMAIN: 'memory',
      CRM_CURSOR_SECRET: 'memory-test-cursor-secret-0123-9d41c7e2',
    },
    SERVICE_NODE_FLAGS,
  );
}, 120_000);

afterAll(async () => {
  agent.destroy();
  await app?.stop();
  await rm(dir, { recursive: true, force: true });
});

interface OpenApi {
  paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string; schema?: { maximum?: number } }>; requestBody?: { content: Record<string, unknown> } }>>;
}

/** The worst requests of every route of the served OpenAPI document (so routes added later are included). */
function worstRequests(doc: OpenApi, ids: { contact: number }): RawRequest[] {
  const requests: RawRequest[] = [];
  const zeros = `[${new Array(Math.floor((BODY_LIMIT - 2048) / 2)).fill(0).join(',')}]`;
  for (const [template, operations] of Object.entries(doc.paths)) {
    if (!template.startsWith('/dev/api')) continue;
    const url = template.replace(/\{[^}]+\}/g, (name) => (name.includes('email') ? 'nobody%40memory.test' : String(ids.contact)));
    for (const [method, operation] of Object.entries(operations)) {
      const query = operation.parameters?.filter((p) => p.in === 'query') ?? [];
      const page = query.find((p) => p.name === 'page_size');
      const search = [page && `page_size=${page.schema?.maximum ?? 10}`, query.some((p) => p.name === 'q') && 'q=1', query.some((p) => p.name === 'pipeline_id') && 'pipeline_id=1', query.some((p) => p.name === 'start') && 'start=0&end=4000000000', query.some((p) => p.name === 'email') && 'email=nobody%40memory.test'].filter(Boolean).join('&');
      const target = search ? `${url}?${search}` : url;
      if (method === 'get') {
        // XML: the larger answer (escaped text), and the slower to build
        requests.push({ method, url: target, headers: { Accept: 'application/xml' } });
        continue;
      }
      if (method === 'delete') continue; // the burst must not remove what the pages read
      const types = Object.keys(operation.requestBody?.content ?? { 'application/json': {} });
      for (const type of types) {
        if (type === 'application/json') {
          requests.push({ method, url: target, headers: { 'Content-Type': type }, body: `{"ids":${zeros}}` });
        } else if (type === 'application/x-www-form-urlencoded') {
          requests.push({ method, url: target, headers: { 'Content-Type': type }, body: `ids=${encodeURIComponent(zeros).slice(0, BODY_LIMIT - 2048)}` });
        }
      }
    }
  }
  return requests;
}

it('survives a burst of the worst request of every route, in parallel, and stays ready', async () => {
  const started = Date.now();
  // items at their bounds for the pages to carry
  const contacts: number[] = [];
  for (let i = 0; i < PAGE_MAX.contacts; i++) contacts.push(await created(json('post', '/dev/api/contacts', worstContact(i))));
  const related = contacts.slice(0, MAX_RELATED_CONTACTS);
  for (let i = 0; i < PAGE_MAX.tasks; i++) {
    await created(json('post', '/dev/api/tasks', { subject: '&'.repeat(1000), type: 'CALL', priority_type: 'HIGH', due: 1_900_000_000, contacts: related }));
    await created(json('post', '/dev/api/events', { title: '&'.repeat(1000), start: 1_900_000_000, end: 1_900_003_600, contact_ids: related }));
  }
  for (let i = 0; i < 20; i++) await created(json('post', '/dev/api/notes', { subject: '&'.repeat(1000), description: '&'.repeat(10_000), contact_ids: related }));

  console.info(`seeded in ${Date.now() - started} ms`);
  const doc = JSON.parse((await send({ method: 'get', url: '/openapi.json', headers: {} })).text) as OpenApi;
  const burst = worstRequests(doc, { contact: contacts[0] });
  // the largest legal bodies too
  for (let i = 0; i < 10; i++) burst.push({ method: 'post', url: '/dev/api/contacts', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(worstContact(1000 + i)) });
  expect(burst.length).toBeGreaterThan(60);

  const statuses = new Map<number, number>();
  const answers = await Promise.all(burst.map((req) => send(req).catch((err: Error) => ({ status: -1, text: `${req.method} ${req.url}: ${err.message}` }))));
  console.info(`burst answered at ${Date.now() - started} ms`);
  for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
  for (const failed of answers.filter((a) => a.status === -1)) console.info(failed.text);
  const summary = Object.fromEntries(statuses);
  // every request answered: no connection cut, no 500; 503 only when shed
  const bad = Object.keys(summary).map(Number).filter((status) => status < 200 || (status >= 500 && status !== 503));
  if (bad.length) throw new Error(`statuses ${JSON.stringify(summary)}; app output:\n${app.output().slice(-3000)}`);
  expect(app.output()).not.toMatch(/heap out of memory|FATAL/);
  expect(app.alive()).toBe(true);
  const ready = await sendRaw(app.port, { method: 'get', url: '/readyz', headers: {} });
  expect(ready.status).toBe(200);
  // it still serves a full page
  expect((await send({ method: 'get', url: `/dev/api/contacts?page_size=${PAGE_MAX.contacts}`, headers: {} })).status).toBe(200);
  console.info(`memory burst: ${burst.length} requests, statuses ${JSON.stringify(summary)}`);
}, 300_000);
