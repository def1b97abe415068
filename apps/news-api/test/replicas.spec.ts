import { ATTEMPT_PLACE_MS, FAILED_ATTEMPTS_COLLECTION } from '@lib/http';
import { useReplicas } from '@lib/testing';
import { REVOCATION_BOUND_MS } from '@lib/mongo';
import { DEFAULT_AUTH_LIMIT } from '../src/auth/rate-limit';
import { userModel } from '../src/users/user.model';
import { JWT_SECRET, MASTER_KEY } from './setup-app';
import { PASSWORD, storeUser } from './sweep-fixture';

// Three news-api processes on one database, each with its own token-user cache; no scheduled feed sync.
const replicas = useReplicas({
  entry: 'apps/news-api/src/main.ts',
  replicas: 3,
  env: { MASTER_KEY, JWT_SECRET, NEWS_SYNC_INTERVAL: '0' },
});
const ALL = [0, 1, 2];
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const { maxFailures } = DEFAULT_AUTH_LIMIT;

// every test starts with no failed attempts counted for the test's address and emails
afterEach(() => replicas.db.connection.collection('failed_attempts').deleteMany({}));

let seq = 0;
const nextEmail = () => `u${++seq}@example.com`;
const signIn = (i: number, email: string, password: string, key = MASTER_KEY) => replicas.replica(i).post('/auth').auth(email, password).send({ access_token: key });

describe('news-api on three replicas: a deleted user is refused by every replica within 1 s', () => {
  it('DELETE /users/:id on one replica: the cached token is refused there at once and on the others within the bound', async () => {
    const admin = await storeUser(replicas.db.connection, nextEmail(), 'admin');
    const bob = await storeUser(replicas.db.connection, nextEmail());
    for (let round = 0; round < 2; round++) {
      for (const i of ALL) expect((await replicas.replica(i).get('/news').set(bob.bearer)).status).toBe(200); // cached on every replica
    }
    expect((await replicas.replica(0).delete(`/users/${bob.id}`).set(admin.bearer)).status).toBe(204);
    const acknowledged = Date.now();
    expect((await replicas.replica(0).get('/news').set(bob.bearer)).status).toBe(401);
    await pause(Math.max(0, acknowledged + REVOCATION_BOUND_MS - Date.now()));
    for (const i of ALL) {
      const res = await replicas.replica(i).get('/news').set(bob.bearer);
      expect(res.status).toBe(401);
      expect(res.body.error).toEqual({ code: 'unauthorized', message: 'The token is not valid' });
    }
  }, 60_000);
});

describe('news-api on three replicas: failed attempts are limited per email and client address across replicas', () => {
  it('30 wrong passwords for one email spread over the replicas: 10 answer 401, then every replica answers 429 for that email only', async () => {
    const stale = nextEmail();
    const colleague = nextEmail();
    await storeUser(replicas.db.connection, stale);
    await storeUser(replicas.db.connection, colleague);
    const statuses: number[] = [];
    for (let n = 0; n < 30; n++) statuses.push((await signIn(n % 3, stale, `wrong-${n}`)).status);
    expect(statuses).toEqual([...Array(maxFailures).fill(401), ...Array(30 - maxFailures).fill(429)]);
    for (const i of ALL) {
      const res = await signIn(i, stale, PASSWORD); // the right password too
      expect(res.status).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.body.error).toEqual({ code: 'too_many_requests', message: expect.stringContaining('Too many failed attempts') });
      expect(res.body.token).toBeUndefined();
    }
    // a colleague behind the same address signs in on every replica; the master-key routes are served
    for (const i of ALL) {
      const res = await signIn(i, colleague, PASSWORD);
      expect(res.status).toBe(201);
      expect(typeof res.body.token).toBe('string');
    }
    expect((await replicas.replica(1).post('/users').send({ email: nextEmail(), password: PASSWORD, access_token: MASTER_KEY })).status).toBe(201);
  }, 120_000);

  /** An email's stale password: all its failed attempts but one, spread over the replicas, cheap (a wrong master key: no password hash). */
  async function failAllButOne(email: string): Promise<void> {
    for (let n = 0; n < maxFailures - 1; n++) expect((await signIn(n % 3, email, PASSWORD, 'wrong-master-key')).status).toBe(401);
  }
  async function expectLastFailureThenBlocked(email: string): Promise<void> {
    expect((await signIn(0, email, PASSWORD, 'wrong-master-key')).status).toBe(401);
    expect((await signIn(1, email, PASSWORD)).status).toBe(429);
  }

  it('15 concurrent correct sign-ins (no replica has seen them) next to a stale client are never refused and never counted', async () => {
    const stale = nextEmail();
    const email = nextEmail();
    await storeUser(replicas.db.connection, stale);
    await storeUser(replicas.db.connection, email);
    for (let n = 0; n < maxFailures; n++) expect((await signIn(n % 3, stale, `old-${n}`, 'wrong-master-key')).status).toBe(401);
    await failAllButOne(email);
    const others = [nextEmail(), nextEmail(), nextEmail()];
    await Promise.all(others.map((other) => storeUser(replicas.db.connection, other)));
    const answers = await Promise.all(Array.from({ length: 15 }, (_, n) => signIn(n % 3, others[n % 3], PASSWORD)));
    expect(answers.map((res) => res.status)).toEqual(Array(15).fill(201));
    expect(answers.every((res) => typeof res.body.token === 'string')).toBe(true);
    await expectLastFailureThenBlocked(email);
  }, 120_000);

  it('150 concurrent POST /users with the master key next to a stale master key are never refused with 429 and never counted', async () => {
    // 20 new users and 130 for an email already taken (409): each new user costs a password hash
    // (about 0.2 s of CPU), so most requests are refusals that are not authentication failures
    const taken = nextEmail();
    await storeUser(replicas.db.connection, taken);
    for (let n = 0; n < maxFailures; n++) {
      expect((await replicas.next().post('/users').send({ email: nextEmail(), password: PASSWORD, access_token: 'old-master-key' })).status).toBe(401);
    }
    const fresh = Array.from({ length: 20 }, nextEmail);
    const bodies = Array.from({ length: 150 }, (_, n) => ({ email: n < 20 ? fresh[n] : taken, password: PASSWORD, access_token: MASTER_KEY }));
    const answers = await Promise.all(bodies.map((body) => replicas.next().post('/users').send(body)));
    const count = (status: number) => answers.filter((res) => res.status === status).length;
    const other = answers.filter((res) => res.status !== 201 && res.status !== 409).map((res) => `${res.status} ${res.body?.error?.code}`);
    expect({ created: count(201), taken: count(409), other }).toEqual({ created: 20, taken: 130, other: [] });
    expect(await userModel(replicas.db.connection).countDocuments({ email: { $in: fresh } })).toBe(20);
    expect((await replicas.next().post('/users').send({ email: nextEmail(), password: PASSWORD, access_token: 'old-master-key' })).status).toBe(429);
  }, 180_000);

  it('places held by a replica killed mid-sign-in expire: afterwards the email is served and its buckets are empty', async () => {
    const email = nextEmail();
    await storeUser(replicas.db.connection, email);
    const buckets = replicas.db.connection.collection(FAILED_ATTEMPTS_COLLECTION);
    // 10 correct sign-ins at once on replica 0: each takes its places, then queues for its hash (2 at a time)
    const inFlight = Array.from({ length: 10 }, () => signIn(0, email, PASSWORD).then((res) => res.status, () => 'cut'));
    while ((await buckets.countDocuments({ used: { $gt: 0 } })) === 0) await pause(10);
    await replicas.kill(0, 'SIGKILL');
    await Promise.all(inFlight);
    const left = await buckets.find({}).toArray();
    expect(left.some((bucket) => Object.keys(bucket.pending ?? {}).length > 0)).toBe(true); // places nobody will give back
    await pause(ATTEMPT_PLACE_MS);
    const res = await signIn(1, email, PASSWORD);
    expect(res.status).toBe(201);
    const after = await buckets.find({}).toArray();
    expect(after.map((bucket) => [bucket.failures, bucket.used, bucket.pending])).toEqual([
      [0, 0, {}],
      [0, 0, {}],
    ]);
    await replicas.restart(0);
  }, 120_000);
});
