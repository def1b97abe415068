import { metricsRegistry } from '@lib/http';
import request from 'supertest';
import { DEFAULT_AUTH_LIMIT } from '../src/auth/rate-limit';
import { MASTER_KEY, setupNewsApp } from './setup-app';

// the default limit: 10 failures per email and address, 100 per address
const ctx = setupNewsApp();
const { maxFailures, maxAddressFailures = 0 } = DEFAULT_AUTH_LIMIT;
const PASSWORD = 'password-123';

const signIn = (email: string, password: string, key = MASTER_KEY) => request(ctx.app).post('/auth').auth(email, password).send({ access_token: key });
const createUser = (email: string, key = MASTER_KEY) => request(ctx.app).post('/users').send({ email, password: PASSWORD, access_token: key });

/** Password hashes computed so far by this file's app (the process's counter). */
async function hashes(): Promise<number> {
  const line = (await metricsRegistry.metrics()).split('\n').find((l) => l.startsWith('password_hashes_total '));
  return line ? Number(line.split(' ')[1]) : 0;
}
const statuses = (answers: request.Response[]) =>
  answers.reduce<Record<number, number>>((counts, res) => ({ ...counts, [res.status]: (counts[res.status] ?? 0) + 1 }), {});

function expectTooMany(res: request.Response): void {
  expect(res.status).toBe(429);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect(res.body).toEqual({ error: { code: 'too_many_requests', message: expect.stringContaining('Too many failed attempts') } });
}

describe('failed sign-ins, per email and address', () => {
  // the counters live in the database, which is emptied before each test
  it('does not count successful sign-ins or 400s', async () => {
    await ctx.createUser('bob@example.com');
    for (let i = 0; i < maxFailures + 2; i++) await ctx.signIn('bob@example.com');
    for (let i = 0; i < maxFailures + 2; i++) expect((await createUser('bad')).status).toBe(400);
    expect((await signIn('bob@example.com', PASSWORD)).status).toBe(201);
  });

  it('40 parallel wrong passwords for one email: 10 are checked (10 hashes), 30 get 429 with Retry-After', async () => {
    await ctx.createUser('ana@example.com');
    const before = await hashes();
    const answers = await Promise.all(Array.from({ length: 40 }, (_, n) => signIn('ana@example.com', `wrong-${n}-password`)));
    expect(statuses(answers)).toEqual({ 401: maxFailures, 429: 40 - maxFailures });
    expect((await hashes()) - before).toBe(maxFailures);
    for (const res of answers.filter((r) => r.status === 429)) expectTooMany(res);
    // locked: the right password too, without a hash, and in any letter case
    const afterBurst = await hashes();
    expectTooMany(await signIn('ana@example.com', PASSWORD));
    expectTooMany(await signIn(' ANA@example.com', PASSWORD));
    expect(await hashes()).toBe(afterBurst);
  });

  it('a stale password for one email leaves another user, and POST /users, served from the same address', async () => {
    await ctx.createUser('ana@example.com');
    await ctx.createUser('bob@example.com');
    for (let i = 0; i < maxFailures; i++) expect((await signIn('ana@example.com', 'old-password-1')).status).toBe(401);
    expectTooMany(await signIn('ana@example.com', PASSWORD));
    const bob = await signIn('bob@example.com', PASSWORD);
    expect(bob.status).toBe(201);
    expect(typeof bob.body.token).toBe('string');
    expect((await createUser('carl@example.com')).status).toBe(201);
  });

  it('a wrong master key costs no password hash, on POST /auth and POST /users, and answers the same 401 as a wrong password', async () => {
    await ctx.createUser('ana@example.com');
    const wrongPassword = await signIn('ana@example.com', 'wrong-password-1');
    const before = await hashes();
    const wrongKey = await signIn('ana@example.com', PASSWORD, 'wrong-master-key');
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.body).toEqual(wrongPassword.body);
    expect(wrongKey.headers['www-authenticate']).toBe(wrongPassword.headers['www-authenticate']);
    const create = await createUser('bob@example.com', 'wrong-master-key');
    expect(create.status).toBe(401);
    expect(await hashes()).toBe(before);
    expect(await ctx.User.countDocuments({ email: 'bob@example.com' })).toBe(0);
  });

  it('a stale master key locks out only itself: the right one still creates users from that address', async () => {
    for (let i = 0; i < maxFailures; i++) expect((await createUser(`u${i}@example.com`, 'old-master-key')).status).toBe(401);
    expectTooMany(await createUser('x@example.com', 'old-master-key'));
    expectTooMany(await request(ctx.app).post('/news/sync').send({ access_token: 'old-master-key' }));
    expect((await createUser('y@example.com')).status).toBe(201);
    expect(await ctx.User.countDocuments()).toBe(1);
  });

  it(`the address ceiling: wrong attempts of many emails are refused once the address has had ${maxAddressFailures} failures`, async () => {
    await ctx.createUser('zed@example.com');
    // a wrong master key: no hash per attempt; in parallel, so the ceiling also holds for a burst
    const answers = await Promise.all(Array.from({ length: maxAddressFailures + 20 }, (_, n) => signIn(`u${n}@example.com`, PASSWORD, 'wrong-master-key')));
    expect(statuses(answers)).toEqual({ 401: maxAddressFailures, 429: 20 });
    expectTooMany(await signIn('zed@example.com', PASSWORD)); // a user with no failure of its own
    expectTooMany(await createUser('new@example.com'));
  });
});
