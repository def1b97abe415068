import { createHash } from 'node:crypto';
import request from 'supertest';
import { apiKeyModel } from '../src/keys/api-key.model';
import { KEY_NAME_MAX, KEYS_PER_USER } from '../src/keys/api-key.schemas';
import { keyUsageModel } from '../src/keys/key-usage.model';
import { setupNewsApp } from './setup-app';
import { storeArticles, storeUser, type StoredUser } from './sweep-fixture';

// a long burst window: what these tests count happens well within one, however slow the machine
const LIMITS = { daily: 50, burst: 20, burstWindowSeconds: 600 };
const ctx = setupNewsApp({ keyLimits: LIMITS });

const KEY_SHAPE = /^nk_[1-9]\d{0,15}_[A-Za-z0-9_-]{43}$/;
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');
const utcDay = () => new Date().toISOString().slice(0, 10);
const secondsToMidnight = () => Math.ceil((Date.parse(`${utcDay()}T00:00:00Z`) + 86_400_000 - Date.now()) / 1000);

let seq = 0;
const newUser = () => storeUser(ctx.connection, `keys-${++seq}@example.com`);
const createKey = (user: StoredUser, name = 'price alerts') => request(ctx.app).post('/users/me/keys').set(user.bearer).send({ name });
async function keyOf(user: StoredUser, name?: string): Promise<{ id: number; key: string }> {
  const res = await createKey(user, name);
  expect(res.status).toBe(201);
  return res.body;
}
const news = (key: string) => request(ctx.app).get('/news?limit=2').set('X-Api-Key', key);

describe('POST /users/me/keys', () => {
  it('answers 201 with the key shown once; only its SHA-256 is stored', async () => {
    const ana = await newUser();
    const res = await createKey(ana, '  price alerts ');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(Number), name: 'price alerts', key: expect.stringMatching(KEY_SHAPE), createdAt: expect.any(String) });
    expect(res.body.key.startsWith(`nk_${res.body.id}_`)).toBe(true);
    expect(res.headers.location).toBe(`/users/me/keys/${res.body.id}`);
    expect(res.headers['cache-control']).toBe('no-store');
    const stored = await apiKeyModel(ctx.connection).findById(res.body.id).lean();
    expect(stored).toMatchObject({ user: ana.id, name: 'price alerts', hash: sha256(res.body.key), slot: 0 });
    // the secret is all after `nk_<id>_` (base64url: it may hold `_` itself)
    expect(res.body.key.startsWith(`nk_${res.body.id}_`)).toBe(true);
    expect(JSON.stringify(stored)).not.toContain(res.body.key.slice(`nk_${res.body.id}_`.length));
    // the key is never shown again
    const list = await request(ctx.app).get('/users/me/keys').set(ana.bearer);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ total: 1, data: [{ id: res.body.id, name: 'price alerts', createdAt: res.body.createdAt }] });
  });

  it('two keys of one user are different random values', async () => {
    const ana = await newUser();
    const [a, b] = [await keyOf(ana), await keyOf(ana)];
    expect(a.key).not.toBe(b.key);
    expect(a.id).not.toBe(b.id);
  });

  it.each([
    ['an empty name', { name: '   ' }, 'name: must not be empty'],
    ['a name too long', { name: 'x'.repeat(KEY_NAME_MAX + 1) }, `name: must be at most ${KEY_NAME_MAX} characters`],
    ['a name with a line break', { name: 'a\nb' }, 'name: must not hold control characters'],
    ['no name', {}, 'name: '],
    ['an unknown field', { name: 'ok', scope: 'admin' }, 'scope'],
  ])('refuses %s with a 400 naming the field, and stores nothing', async (_case, body, message) => {
    const ana = await newUser();
    const res = await request(ctx.app).post('/users/me/keys').set(ana.bearer).send(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.message).toContain(message);
    expect(await apiKeyModel(ctx.connection).countDocuments()).toBe(0);
  });

  it(`a user holds at most ${KEYS_PER_USER} keys, also when creating them all at once; the next is a clear 409`, async () => {
    const ana = await newUser();
    const answers = await Promise.all(Array.from({ length: KEYS_PER_USER + 5 }, (_, n) => createKey(ana, `key ${n}`)));
    expect(answers.filter((res) => res.status === 201)).toHaveLength(KEYS_PER_USER);
    const refused = answers.filter((res) => res.status !== 201);
    expect(refused.map((res) => [res.status, res.body.error.code])).toEqual(Array(5).fill([409, 'key_limit_reached']));
    expect(refused[0].body.error.message).toBe(`A user may have at most ${KEYS_PER_USER} API keys: delete one (DELETE /users/me/keys/{id}) before creating another`);
    expect(await apiKeyModel(ctx.connection).countDocuments({ user: ana.id })).toBe(KEYS_PER_USER);
    // deleting one frees a place
    const one = answers.find((res) => res.status === 201)!.body.id;
    expect((await request(ctx.app).delete(`/users/me/keys/${one}`).set(ana.bearer)).status).toBe(204);
    expect((await createKey(ana)).status).toBe(201);
  });

  it('needs a token: an API key does not manage keys', async () => {
    const ana = await newUser();
    const { key } = await keyOf(ana);
    const res = await request(ctx.app).post('/users/me/keys').set('X-Api-Key', key).send({ name: 'another' });
    expect(res.status).toBe(401);
    expect((await request(ctx.app).get('/users/me/keys').query({ apiKey: key })).status).toBe(401);
  });
});

describe('keys of one user are invisible to another', () => {
  it('another user lists none of them, cannot delete them (404 as for no key), and sees none of their usage', async () => {
    const ana = await newUser();
    const bob = await newUser();
    const { id, key } = await keyOf(ana);
    expect((await news(key)).status).toBe(200);
    expect((await request(ctx.app).get('/users/me/keys').set(bob.bearer)).body).toEqual({ total: 0, data: [] });
    const del = await request(ctx.app).delete(`/users/me/keys/${id}`).set(bob.bearer);
    expect(del.status).toBe(404);
    expect(del.body.error).toEqual({ code: 'not_found', message: `You have no API key ${id}` });
    expect((await request(ctx.app).delete('/users/me/keys/999999').set(bob.bearer)).body.error.message).toBe('You have no API key 999999');
    expect((await news(key)).status).toBe(200); // still works
    const usage = await request(ctx.app).get('/users/me/usage').set(bob.bearer);
    expect(usage.body.data).toEqual([]);
  });
});

describe('GET /news and GET /companies with an API key', () => {
  it('accept X-Api-Key or ?apiKey= instead of a token, answer the RateLimit headers, and keep the key out of the next link', async () => {
    await storeArticles(ctx.connection);
    const ana = await newUser();
    const { key } = await keyOf(ana);
    const byHeader = await news(key);
    expect(byHeader.status).toBe(200);
    expect(byHeader.body.total).toBe(4);
    expect(byHeader.headers['ratelimit-policy']).toBe(`"daily";q=${LIMITS.daily};w=86400, "burst";q=${LIMITS.burst};w=${LIMITS.burstWindowSeconds}`);
    expect(byHeader.headers.ratelimit).toMatch(new RegExp(`^"daily";r=${LIMITS.daily - 1};t=\\d+, "burst";r=${LIMITS.burst - 1};t=\\d+$`));
    expect(byHeader.headers.link).not.toContain('apiKey');
    const byQuery = await request(ctx.app).get('/news').query({ limit: 2, apiKey: key });
    expect(byQuery.status).toBe(200);
    expect(byQuery.headers.ratelimit).toMatch(new RegExp(`^"daily";r=${LIMITS.daily - 2};t=`));
    expect(byQuery.headers.link).toMatch(/^<\/news\?limit=2&cursor=[^>]+>; rel="next"$/);
    const one = await request(ctx.app).get(`/news/${byQuery.body.data[0].id}`).set('X-Api-Key', key);
    expect([one.status, one.body.id]).toEqual([200, byQuery.body.data[0].id]);
    const companies = await request(ctx.app).get('/companies?q=bank').query({ apiKey: key });
    expect(companies.status).toBe(200);
    expect(companies.body.total).toBeGreaterThan(0);
    // a token is not counted
    const withToken = await request(ctx.app).get('/news').set(ana.bearer);
    expect(withToken.status).toBe(200);
    expect(withToken.headers.ratelimit).toBeUndefined();
    const usage = (await keyUsageModel(ctx.connection).findOne({ user: ana.id }).lean())!;
    expect([usage.day, usage.count]).toEqual([utcDay(), 4]);
  });

  it.each([
    ['a made-up key', 'nk_123_' + 'A'.repeat(43)],
    ['garbage', 'not-a-key'],
    ['an empty header', ''],
    ['an id past 2^53', `nk_99999999999999999_${'A'.repeat(43)}`],
  ])('refuse %s with 401 and count nothing', async (_case, key) => {
    const res = await news(key);
    expect(res.status).toBe(401);
    expect(res.body.error).toEqual({ code: 'unauthorized', message: 'The API key is not valid: send a key from POST /users/me/keys as X-Api-Key (or ?apiKey=)' });
    expect(res.headers.ratelimit).toBeUndefined();
    expect(await keyUsageModel(ctx.connection).countDocuments()).toBe(0);
  });

  it('refuse a real key with one character changed, and a key presented with another key id', async () => {
    const ana = await newUser();
    const { key } = await keyOf(ana);
    const other = await keyOf(ana, 'other');
    const last = key.slice(-1) === 'A' ? 'B' : 'A';
    expect((await news(key.slice(0, -1) + last)).status).toBe(401);
    const secret = key.slice(key.lastIndexOf('_') + 1);
    expect((await news(`nk_${other.id}_${secret}`)).status).toBe(401);
    expect((await news(key)).status).toBe(200);
  });

  it('are not taken where a token is required (GET /users/me, GET /sources)', async () => {
    const ana = await newUser();
    const { key } = await keyOf(ana);
    expect((await request(ctx.app).get('/users/me').set('X-Api-Key', key)).status).toBe(401);
    expect((await request(ctx.app).get('/sources').set('X-Api-Key', key)).status).toBe(401);
  });
});

describe('revocation', () => {
  it('DELETE /users/me/keys/:id: 204, the key is refused at once, its usage is gone', async () => {
    const ana = await newUser();
    const { id, key } = await keyOf(ana);
    expect((await news(key)).status).toBe(200);
    expect((await request(ctx.app).delete(`/users/me/keys/${id}`).set(ana.bearer)).status).toBe(204);
    expect((await news(key)).status).toBe(401);
    expect(await apiKeyModel(ctx.connection).countDocuments({ _id: id })).toBe(0);
    expect(await keyUsageModel(ctx.connection).countDocuments({ key: id })).toBe(0);
    expect((await request(ctx.app).delete(`/users/me/keys/${id}`).set(ana.bearer)).status).toBe(404);
  });

  it('a key of a deleted user stops working at once, and the user\'s keys and usage are deleted', async () => {
    const admin = await storeUser(ctx.connection, `admin-${++seq}@example.com`, 'admin');
    const ana = await newUser();
    const { key } = await keyOf(ana);
    expect((await news(key)).status).toBe(200);
    expect((await request(ctx.app).delete(`/users/${ana.id}`).set(admin.bearer)).status).toBe(204);
    const res = await news(key);
    expect(res.status).toBe(401);
    expect(await apiKeyModel(ctx.connection).countDocuments({ user: ana.id })).toBe(0);
    expect(await keyUsageModel(ctx.connection).countDocuments({ user: ana.id })).toBe(0);
  });
});

describe('GET /users/me/usage', () => {
  it('reports each key\'s requests of the day, newest day first, with the quota', async () => {
    const ana = await newUser();
    const a = await keyOf(ana, 'alpha');
    const b = await keyOf(ana, 'beta');
    for (let n = 0; n < 3; n++) expect((await news(a.key)).status).toBe(200);
    expect((await news(b.key)).status).toBe(200);
    // an older day, as a day's document is stored
    await keyUsageModel(ctx.connection).create({ _id: `${a.id}:2000-01-01`, key: a.id, user: ana.id, day: '2000-01-01', count: 7, burst: 0, burst_ends: new Date(0), expire: new Date(Date.now() + 60_000) });
    const res = await request(ctx.app).get('/users/me/usage').set(ana.bearer);
    expect(res.status).toBe(200);
    const today = utcDay();
    expect(res.body.to).toBe(today);
    expect(res.body.data).toEqual([
      { day: today, key: { id: a.id, name: 'alpha' }, requests: 3, quota: LIMITS.daily },
      { day: today, key: { id: b.id, name: 'beta' }, requests: 1, quota: LIMITS.daily },
    ]);
    expect((await request(ctx.app).get('/users/me/usage?days=0').set(ana.bearer)).status).toBe(400);
    expect((await request(ctx.app).get('/users/me/usage?days=32').set(ana.bearer)).body.error.message).toContain('days');
  });
});

describe('quota and rate of one key (one replica; three: replicas-keys.spec.ts)', () => {
  const quota = setupNewsApp({ keyLimits: { daily: 3, burst: 100, burstWindowSeconds: 600 } });
  const rate = setupNewsApp({ keyLimits: { daily: 100, burst: 2, burstWindowSeconds: 1 } });

  it('the daily quota: the next request gets 429 until 00:00 UTC, with Retry-After and the RateLimit headers; other keys are served', async () => {
    const ana = await storeUser(quota.connection, 'quota@example.com');
    const key = (await request(quota.app).post('/users/me/keys').set(ana.bearer).send({ name: 'q' })).body.key;
    const other = (await request(quota.app).post('/users/me/keys').set(ana.bearer).send({ name: 'other' })).body.key;
    const get = (k: string) => request(quota.app).get('/companies').set('X-Api-Key', k);
    for (let n = 0; n < 3; n++) expect((await get(key)).status).toBe(200);
    for (let n = 0; n < 2; n++) {
      const res = await get(key);
      expect(res.status).toBe(429);
      expect(res.body.error.code).toBe('too_many_requests');
      expect(res.body.error.message).toMatch(/^This API key has used its 3 requests of the day \(UTC\); more from 00:00 UTC, in \d+ seconds$/);
      const retryAfter = Number(res.headers['retry-after']);
      expect(Math.abs(retryAfter - secondsToMidnight())).toBeLessThanOrEqual(2);
      expect(res.headers['ratelimit-policy']).toBe('"daily";q=3;w=86400, "burst";q=100;w=600');
      expect(res.headers.ratelimit).toMatch(new RegExp(`^"daily";r=0;t=${retryAfter}, "burst";r=\\d+;t=\\d+$`));
    }
    expect((await get(other)).status).toBe(200);
    expect((await keyUsageModel(quota.connection).findOne({ _id: new RegExp(`^${key.split('_')[1]}:`) }).lean())?.count).toBe(3);
  });

  it('the burst rate: past 2 requests in a window, 429 with the seconds left in it; after the window the key is served again', async () => {
    const ana = await storeUser(rate.connection, 'rate@example.com');
    const key = (await request(rate.app).post('/users/me/keys').set(ana.bearer).send({ name: 'r' })).body.key;
    const get = () => request(rate.app).get('/companies').set('X-Api-Key', key);
    const pause = () => new Promise((resolve) => setTimeout(resolve, 1_100));
    for (let attempt = 1; ; attempt++) {
      // the three requests must fall in one window of 1 s: on a slow machine, try again in a fresh window
      const answers = [await get(), await get(), await get()];
      const statuses = answers.map((res) => res.status);
      if (statuses[2] === 200 && attempt < 5) {
        await pause();
        continue;
      }
      expect(statuses).toEqual([200, 200, 429]);
      expect(answers[0].headers.ratelimit).toMatch(/^"daily";r=\d+;t=\d+, "burst";r=1;t=1$/);
      const refused = answers[2];
      expect(refused.body.error.message).toBe('This API key sent 2 requests within 1 s; try again in 1 second');
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.headers.ratelimit).toMatch(/^"daily";r=\d+;t=\d+, "burst";r=0;t=[01]$/);
      break;
    }
    await pause();
    const again = await get();
    expect(again.status).toBe(200);
    expect(again.headers.ratelimit).toMatch(/"burst";r=1;t=1$/);
  });
});
