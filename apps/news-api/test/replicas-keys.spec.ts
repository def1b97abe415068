import { REVOCATION_BOUND_MS } from '@lib/mongo';
import { useReplicas } from '@lib/testing';
import { keyUsageModel } from '../src/keys/key-usage.model';
import { JWT_SECRET, MASTER_KEY } from './setup-app';
import { storeUser, type StoredUser } from './sweep-fixture';

// Three news-api processes on one database: each its own key cache, token-user cache and memory of
// refusals. A burst window of 60 s: every batch below falls within one window, however slow the machine.
const DAILY = 6;
const BURST = 4;
const replicas = useReplicas({
  entry: 'apps/news-api/src/main.ts',
  replicas: 3,
  env: { MASTER_KEY, JWT_SECRET, NEWS_SYNC_INTERVAL: '0', NEWS_KEY_DAILY_QUOTA: String(DAILY), NEWS_KEY_BURST: String(BURST), NEWS_KEY_BURST_WINDOW: '60s' },
});
const ALL = [0, 1, 2];
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const today = () => new Date().toISOString().slice(0, 10);

let seq = 0;
const newUser = (role: 'user' | 'admin' = 'user') => storeUser(replicas.db.connection, `replica-keys-${++seq}@example.com`, role);
async function keyOf(user: StoredUser, on = 0): Promise<{ id: number; key: string }> {
  const res = await replicas.replica(on).post('/users/me/keys').set(user.bearer).send({ name: `key ${seq}` });
  expect(res.status).toBe(201);
  return res.body;
}
const companies = (i: number, key: string) => replicas.replica(i).get('/companies?q=bank').set('X-Api-Key', key);
const statusesOf = (answers: { status: number }[]) => answers.map((res) => res.status).sort();

describe('news-api on three replicas: the limits of an API key are counted once for all of them', () => {
  it(`the burst: 12 requests at once spread over the replicas, exactly ${BURST} served, the rest 429 with Retry-After`, async () => {
    const { key, id } = await keyOf(await newUser());
    const answers = await Promise.all(Array.from({ length: 12 }, (_, n) => companies(n % 3, key)));
    expect(statusesOf(answers)).toEqual([...Array(BURST).fill(200), ...Array(12 - BURST).fill(429)]);
    for (const res of answers.filter((answer) => answer.status === 429)) {
      expect(res.body.error.message).toMatch(new RegExp(`^This API key sent ${BURST} requests within 60 s; try again in \\d+ seconds?$`));
      const retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(res.headers.ratelimit).toMatch(new RegExp(`"burst";r=0;t=${retryAfter}$`));
    }
    // what the 200s said is left: 3, 2, 1, 0 (each replica counted in the one document)
    const left = answers.filter((res) => res.status === 200).map((res) => Number(/"burst";r=(\d+)/.exec(res.headers.ratelimit)![1]));
    expect(left.sort()).toEqual([0, 1, 2, 3]);
    const stored = (await keyUsageModel(replicas.db.connection).findById(`${id}:${today()}`).lean())!;
    expect([stored.count, stored.burst]).toEqual([BURST, BURST]);
    // every replica refuses it now (each from its own memory or the database)
    for (const i of ALL) expect((await companies(i, key)).status).toBe(429);
  }, 60_000);

  it(`the daily quota: with ${DAILY - 3} requests left, 12 at once on the replicas get exactly ${DAILY - 3} answers; then every replica refuses until 00:00 UTC`, async () => {
    const ana = await newUser();
    const { key, id } = await keyOf(ana);
    // 3 requests of the day already counted, in a burst window that has ended
    await keyUsageModel(replicas.db.connection).create({ _id: `${id}:${today()}`, key: id, user: ana.id, day: today(), count: 3, burst: 3, burst_ends: new Date(Date.now() - 1_000), expire: new Date(Date.now() + 86_400_000) });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, n) => companies(n % 3, key)));
    expect(statusesOf(answers)).toEqual([...Array(DAILY - 3).fill(200), ...Array(12 - (DAILY - 3)).fill(429)]);
    for (const i of ALL) {
      const res = await companies(i, key);
      expect(res.status).toBe(429);
      expect(res.body.error.message).toMatch(new RegExp(`^This API key has used its ${DAILY} requests of the day \\(UTC\\); more from 00:00 UTC, in \\d+ seconds$`));
      expect(res.headers.ratelimit).toMatch(/^"daily";r=0;t=\d+, "burst";r=\d+;t=\d+$/);
      expect(res.headers['ratelimit-policy']).toBe(`"daily";q=${DAILY};w=86400, "burst";q=${BURST};w=60`);
    }
    expect((await keyUsageModel(replicas.db.connection).findById(`${id}:${today()}`).lean())?.count).toBe(DAILY);
    // another key of the same user is served
    const other = await keyOf(ana, 1);
    expect((await companies(2, other.key)).status).toBe(200);
    const usage = await replicas.replica(1).get('/users/me/usage').set(ana.bearer);
    expect(usage.body.data).toEqual([
      { day: today(), key: { id, name: expect.any(String) }, requests: DAILY, quota: DAILY },
      { day: today(), key: { id: other.id, name: expect.any(String) }, requests: 1, quota: DAILY },
    ]);
  }, 60_000);
});

describe('news-api on three replicas: a revoked key, or a deleted user\'s key, is refused by every replica within 1 s', () => {
  it('DELETE /users/me/keys/:id on one replica: refused there at once and on the others within the bound', async () => {
    const ana = await newUser();
    const { key, id } = await keyOf(ana);
    for (const i of ALL) expect((await companies(i, key)).status).toBe(200); // cached on every replica
    expect((await replicas.replica(0).delete(`/users/me/keys/${id}`).set(ana.bearer)).status).toBe(204);
    const acknowledged = Date.now();
    expect((await companies(0, key)).status).toBe(401);
    await pause(Math.max(0, acknowledged + REVOCATION_BOUND_MS - Date.now()));
    for (const i of ALL) {
      const res = await companies(i, key);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
    }
  }, 60_000);

  it('DELETE /users/:id on one replica: the user\'s key is refused there at once and on the others within the bound', async () => {
    const admin = await newUser('admin');
    const ana = await newUser();
    const { key } = await keyOf(ana);
    for (const i of ALL) expect((await companies(i, key)).status).toBe(200);
    expect((await replicas.replica(1).delete(`/users/${ana.id}`).set(admin.bearer)).status).toBe(204);
    const acknowledged = Date.now();
    expect((await companies(1, key)).status).toBe(401);
    await pause(Math.max(0, acknowledged + REVOCATION_BOUND_MS - Date.now()));
    for (const i of ALL) expect((await companies(i, key)).status).toBe(401);
  }, 60_000);
});
