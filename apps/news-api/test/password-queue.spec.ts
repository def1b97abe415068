import request from 'supertest';
import { MASTER_KEY, setupNewsApp } from './setup-app';

// one hash at a time and two waiting: a burst of sign-ups or sign-ins is mostly refused with 503
const ctx = setupNewsApp({ passwordQueue: { concurrent: 1, queue: 2 } });
const PASSWORD = 'password-123';

function expectBusy(res: request.Response): void {
  expect(res.status).toBe(503);
  expect(res.headers['retry-after']).toBe('1');
  expect(res.body).toEqual({ error: { code: 'overloaded', message: 'The service is busy checking passwords; try again shortly', error_id: expect.any(String) } });
}

describe('the password-hash queue', () => {
  it('a burst of sign-ups beyond the queue gets 503 with Retry-After; what was answered 201 is stored, nothing else; other routes are served meanwhile', async () => {
    const token = await ctx.tokenFor('user', 'reader@example.com');
    const emails = Array.from({ length: 30 }, (_, n) => `new-${n}@example.com`);
    const burst = Promise.all(emails.map((email) => request(ctx.app).post('/users').send({ email, password: PASSWORD, access_token: MASTER_KEY })));
    // while the hashes queue: health and a signed-in route need no hash
    const [health, me] = await Promise.all([request(ctx.app).get('/healthz'), request(ctx.app).get('/users/me').set('Authorization', `Bearer ${token}`)]);
    expect(health.status).toBe(200);
    expect(me.status).toBe(200);
    expect(me.body.email).toBe('reader@example.com');
    const answers = await burst;
    const created = answers.filter((res) => res.status === 201);
    const refused = answers.filter((res) => res.status !== 201);
    expect(created.length).toBeGreaterThanOrEqual(3); // one hashing and two waiting were admitted
    expect(refused.length).toBeGreaterThan(0);
    refused.forEach(expectBusy);
    const stored = await ctx.User.find({ email: { $in: emails } }).lean();
    expect(stored.map((user) => user.email).sort()).toEqual(created.map((res) => res.body.email).sort());
  });

  it('a sign-in refused for a full queue is not a failed attempt: the email is not locked by it', async () => {
    await ctx.createUser('ana@example.com', PASSWORD);
    const answers = await Promise.all(Array.from({ length: 30 }, () => request(ctx.app).post('/auth').auth('ana@example.com', PASSWORD).send({ access_token: MASTER_KEY })));
    expect(answers.filter((res) => res.status !== 201 && res.status !== 503)).toEqual([]);
    answers.filter((res) => res.status === 503).forEach(expectBusy);
    expect(answers.some((res) => res.status === 503)).toBe(true);
    const later = await request(ctx.app).post('/auth').auth('ana@example.com', PASSWORD).send({ access_token: MASTER_KEY });
    expect(later.status).toBe(201);
    expect(await ctx.connection.collection('failed_attempts').countDocuments({ failures: { $gt: 0 } })).toBe(0);
  });
});
