import { randomBytes } from 'node:crypto';
import { expectSurvivesBurst, sendRaw, useProductionApp, worstRequests, type OpenApiPaths, type RawRequest } from '@lib/testing';
import { DEFAULT_BODY_LIMIT, limitBytes } from '@lib/http';
import { createConnection, type Connection } from 'mongoose';
import { AGE_MAX, CITY_MAX, MAX_PAGE, NAME_MAX } from '../src/users/user.schemas';
import { userModel } from '../src/users/user.model';

/**
 * users-api as production runs it (bundled, NODE_ENV=production, the production heap flags) hit in
 * parallel with the worst request every route accepts — full pages of users at their bounds, and
 * appends with every parameter at its bound — stays alive, answers every request, and ends with
 * /readyz 200.
 */
const USERS_API_KEY = randomBytes(24).toString('hex');
const production = useProductionApp('users-api', 'USERS_MONGO_URL', { USERS_API_KEY, USERS_CURSOR_SECRET: randomBytes(32).toString('hex') });

let connection: Connection;
beforeAll(async () => {
  connection = await createConnection(production.mongoUrl).asPromise();
});
afterAll(() => connection?.close());

it('survives a burst of the worst request of every route, in parallel, and stays ready', async () => {
  await userModel(connection).insertMany(Array.from({ length: MAX_PAGE * 2 }, (_, i) => ({ _id: i + 1, name: `${i}`.padEnd(NAME_MAX, '€'), age: AGE_MAX, city: '€'.repeat(CITY_MAX) })));
  const send = (req: RawRequest) => sendRaw(production.app.port, { ...req, headers: { 'X-API-Key': USERS_API_KEY, ...req.headers } });
  const doc = JSON.parse((await send({ method: 'get', url: '/openapi.json', headers: {} })).text) as OpenApiPaths;
  const largest = { name: encodeURIComponent('€'.repeat(NAME_MAX)), age: String(AGE_MAX), city: encodeURIComponent('€'.repeat(CITY_MAX)) };
  const burst = worstRequests(doc, { bodyLimit: limitBytes(DEFAULT_BODY_LIMIT), pathValue: () => '1', queryValue: (name) => largest[name as keyof typeof largest] });
  const page = burst.find((req) => req.method === 'get' && req.url === `/users?limit=${MAX_PAGE}`);
  const append = burst.find((req) => req.method === 'post');
  expect(page && append?.url).toBeTruthy();
  for (let i = 0; i < 40; i++) burst.push(page!, { ...append!, body: undefined, headers: {} });
  const summary = await expectSurvivesBurst(production.app, burst, { 'X-API-Key': USERS_API_KEY });
  expect(summary[200]).toBeGreaterThan(0);
  const after = await send(page!);
  expect(after.status).toBe(200);
  expect(JSON.parse(after.text).data).toHaveLength(MAX_PAGE);
  console.info(`users memory burst: ${burst.length} requests, statuses ${JSON.stringify(summary)}`);
}, 300_000);
