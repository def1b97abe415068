import { randomBytes } from 'node:crypto';
import { expectSurvivesBurst, sendRaw, useProductionApp, worstRequests, type OpenApiPaths, type RawRequest } from '@lib/testing';
import { CONTENT_MAX, MAX_LIMIT, PAGE_BUDGET_BYTES, TITLE_MAX } from '../src/articles/article.schemas';

/**
 * articles-api as production runs it (bundled, NODE_ENV=production, the production heap flags)
 * hit in parallel with the worst request every route accepts — full pages (8 MiB) of articles at their
 * bounds, the largest legal bodies, malformed bodies at the 512 kB body limit — stays alive,
 * answers every request, and ends with /readyz 200.
 */
const API_KEY = randomBytes(24).toString('hex');
const BODY_LIMIT = 512 * 1024;
/** Articles at their bounds stored: more than one page of the budget holds (about 27). */
const ARTICLES = 30;
const production = useProductionApp('articles-api', 'ARTICLES_MONGO_URL', { ARTICLES_API_KEY: API_KEY });

const send = (req: RawRequest) => sendRaw(production.app.port, { ...req, headers: { 'X-API-Key': API_KEY, ...req.headers } });
/** An article at its bounds in the costliest character (3 bytes of UTF-8). */
const worstArticle = (i: number) => JSON.stringify({ title: `${i}`.padEnd(TITLE_MAX, '€'), content: '€'.repeat(CONTENT_MAX) });

it('survives a burst of the worst request of every route, in parallel, and stays ready', async () => {
  let id = 0;
  // more than a page holds: each full page ends at its byte budget
  for (let i = 0; i < ARTICLES; i++) {
    const res = await send({ method: 'post', url: '/articles', headers: { 'Content-Type': 'application/json' }, body: worstArticle(i) });
    expect(res.status).toBe(201);
    id = JSON.parse(res.text).data.id;
  }
  const doc = JSON.parse((await send({ method: 'get', url: '/openapi.json', headers: {} })).text) as OpenApiPaths;
  const burst = worstRequests(doc, { bodyLimit: BODY_LIMIT, pathValue: () => String(id), queryValue: (name) => (name === 'offset' ? '0' : undefined) });
  const pages = burst.filter((req) => req.method === 'get' && req.url === `/articles?offset=0&limit=${MAX_LIMIT}`);
  expect(pages).toHaveLength(1);
  // many full pages at once (8 MiB each), and the largest legal bodies
  for (let i = 0; i < 30; i++) burst.push(pages[0]);
  for (let i = 0; i < 10; i++) burst.push({ method: 'post', url: '/articles', headers: { 'Content-Type': 'application/json' }, body: worstArticle(100 + i) });
  const summary = await expectSurvivesBurst(production.app, burst, { 'X-API-Key': API_KEY });
  expect(summary[200]).toBeGreaterThan(0);
  // it still serves a full page of every article at its bounds
  const page = await send(pages[0]);
  expect(page.status).toBe(200);
  const { data, limit } = JSON.parse(page.text);
  expect(data.length).toBe(limit);
  expect(limit).toBeLessThan(ARTICLES);
  expect(Buffer.byteLength(page.text)).toBeLessThanOrEqual(PAGE_BUDGET_BYTES);
  console.info(`articles memory burst: ${burst.length} requests, statuses ${JSON.stringify(summary)}`);
}, 300_000);
