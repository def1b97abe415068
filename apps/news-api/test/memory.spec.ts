import { randomBytes } from 'node:crypto';
import { expectSurvivesBurst, sendRaw, useProductionApp, worstRequests, type OpenApiPaths, type RawRequest } from '@lib/testing';
import { nextSequence } from '@lib/mongo';
import { createConnection, type Connection } from 'mongoose';
import { hashPassword } from '../src/auth/passwords';
import { signToken } from '../src/auth/tokens';
import { SUMMARY_MAX, TITLE_MAX } from '../src/feeds/read-feed';
import { articleModel } from '../src/news/article.model';
import { MAX_PAGE as NEWS_PAGE_MAX } from '../src/news/news.schemas';
import { MAX_PAGE as USERS_PAGE_MAX } from '../src/users/user.schemas';
import { userModel } from '../src/users/user.model';

/**
 * news-api as production runs it (bundled, NODE_ENV=production, the production heap flags) hit in
 * parallel with the worst request every route accepts — full pages of news and users at their
 * bounds, malformed bodies at the 16 kB body limit — stays alive, answers every request, and ends
 * with /readyz 200.
 */
const MASTER_KEY = randomBytes(24).toString('hex');
const JWT_SECRET = randomBytes(32).toString('hex');
const BODY_LIMIT = 16 * 1024;
const production = useProductionApp('news-api', 'NEWS_MONGO_URL', { MASTER_KEY, JWT_SECRET, NEWS_SYNC_INTERVAL: '0' });

let connection: Connection;
beforeAll(async () => {
  connection = await createConnection(production.mongoUrl).asPromise();
});
afterAll(() => connection?.close());

it('survives a burst of the worst request of every route, in parallel, and stays ready', async () => {
  const id = await nextSequence(connection, 'users');
  await userModel(connection).create({ _id: id, email: 'admin@memory.test', password_hash: await hashPassword('password-123'), role: 'admin' });
  for (let i = 0; i < USERS_PAGE_MAX; i++) {
    await userModel(connection).create({ _id: await nextSequence(connection, 'users'), email: `${'u'.repeat(200)}${i}@memory.test`, password_hash: 'x'.repeat(100), role: 'user' });
  }
  const at = new Date(Date.UTC(2026, 10, 1));
  await articleModel(connection).insertMany(
    Array.from({ length: NEWS_PAGE_MAX * 2 }, (_, i) => ({
      _id: i + 1,
      url: `https://news.example/${i + 1}/${'p'.repeat(1000)}`,
      title: `${i}`.padEnd(TITLE_MAX, '€'),
      summary: '€'.repeat(SUMMARY_MAX),
      source: 'abc-news',
      source_name: 'ABC News',
      published_at: new Date(at.getTime() + i * 60_000),
      companies: ['BHP', 'CBA', 'WBC', 'FMG', 'RIO', 'NAB', 'ANZ', 'CSL', 'WES', 'TLS'],
      fetched_at: at,
    })),
  );
  const bearer = `Bearer ${signToken({ secret: JWT_SECRET, expiresInSeconds: 3600 }, id)}`;
  const send = (req: RawRequest) => sendRaw(production.app.port, { ...req, headers: { Authorization: bearer, ...req.headers } });

  const doc = JSON.parse((await send({ method: 'get', url: '/openapi.json', headers: {} })).text) as OpenApiPaths;
  const burst = worstRequests(doc, { bodyLimit: BODY_LIMIT, pathValue: () => '1' });
  const pages = burst.filter((req) => req.method === 'get' && (req.url === `/news?limit=${NEWS_PAGE_MAX}` || req.url === `/users?limit=${USERS_PAGE_MAX}`));
  expect(pages).toHaveLength(2);
  for (let i = 0; i < 40; i++) burst.push(pages[i % 2]);
  const summary = await expectSurvivesBurst(production.app, burst, { Authorization: bearer });
  expect(summary[200]).toBeGreaterThan(0);
  const page = await send(pages[0]);
  expect(page.status).toBe(200);
  console.info(`news memory burst: ${burst.length} requests, statuses ${JSON.stringify(summary)}`);
}, 300_000);
