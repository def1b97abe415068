import request from 'supertest';
import { MASTER_KEY, setupNewsApp } from './setup-app';

const ctx = setupNewsApp({ authLimit: { maxFailures: 3, windowMs: 60_000 } });

describe('brute force on /auth and the master key', () => {
  // the counters live in the database, which is emptied before each test
  it('does not count successful sign-ins or 400s', async () => {
    await ctx.createUser('bob@example.com', 'password-123');
    for (let i = 0; i < 4; i++) await ctx.signIn('bob@example.com');
    for (let i = 0; i < 4; i++) {
      await request(ctx.app).post('/users').send({ email: 'bad', password: 'password-123', access_token: MASTER_KEY }).expect(400);
    }
    expect((await request(ctx.app).post('/auth').auth('bob@example.com', 'password-123').send({ access_token: MASTER_KEY })).status).toBe(201);
  });

  it('answers 429 with Retry-After after the allowed failures, even for the right password, and then for POST /users too', async () => {
    await ctx.createUser('ana@example.com', 'password-123');
    for (let i = 0; i < 3; i++) {
      await request(ctx.app).post('/auth').auth('ana@example.com', `wrong-${i}`).send({ access_token: MASTER_KEY }).expect(401);
    }
    const blocked = await request(ctx.app).post('/auth').auth('ana@example.com', 'password-123').send({ access_token: MASTER_KEY });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.body.error).toEqual({ code: 'too_many_requests', message: expect.stringContaining('Too many failed attempts') });
    expect(blocked.body.token).toBeUndefined();
    const create = await request(ctx.app).post('/users').send({ email: 'b@example.com', password: 'password-123', access_token: MASTER_KEY });
    expect(create.status).toBe(429);
    expect(await ctx.User.countDocuments()).toBe(1);
  });
});
