import request from 'supertest';
import { MASTER_KEY, setupNewsApp } from './setup-app';

const ctx = setupNewsApp();

const createUser = (body: Record<string, unknown>) => request(ctx.app).post('/users').send(body);

describe('POST /users', () => {
  it('creates a user from JSON: 201, Location, the user without any password, and a slow hash stored', async () => {
    const res = await createUser({ email: 'Ana@Example.com', password: 'password-123', access_token: MASTER_KEY });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe('/users/1');
    expect(res.body).toEqual({ id: 1, email: 'ana@example.com', role: 'user', createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/) });
    const stored = await ctx.User.findById(1).lean();
    expect(stored).toMatchObject({ email: 'ana@example.com', role: 'user' });
    expect(stored!.password_hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(stored!.password_hash).not.toContain('password-123');
  });

  it('creates a user from a form, the master key as the access_token field', async () => {
    const res = await request(ctx.app)
      .post('/users')
      .type('form')
      .send({ email: 'form@example.com', password: 'form-pass-1', access_token: MASTER_KEY });
    expect(res.status).toBe(201);
    expect(res.body.email).toBe('form@example.com');
  });

  it('takes the master key from the query too, and creates admins when asked', async () => {
    const res = await request(ctx.app).post(`/users?access_token=${MASTER_KEY}`).send({ email: 'boss@example.com', password: 'boss-pass-1', role: 'admin' });
    expect(res.status).toBe(201);
    expect(res.body.role).toBe('admin');
  });

  it('answers 409 for an email already registered, in any letter case, and keeps one user', async () => {
    await createUser({ email: 'dup@example.com', password: 'password-123', access_token: MASTER_KEY }).expect(201);
    const res = await createUser({ email: 'DUP@example.com', password: 'other-pass-9', access_token: MASTER_KEY });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: { code: 'email_taken', message: 'A user with the email dup@example.com already exists' } });
    expect(await ctx.User.countDocuments()).toBe(1);
  });

  it('lets exactly one of concurrent sign-ups with one email win', async () => {
    const responses = await Promise.all(
      Array.from({ length: 4 }, (_, i) => createUser({ email: 'race@example.com', password: `password-${i}`, access_token: MASTER_KEY })),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    expect(await ctx.User.countDocuments({ email: 'race@example.com' })).toBe(1);
  });

  it('creates the user under a fresh id when the counter hands out an id already taken, instead of calling the email taken', async () => {
    // a counter behind the stored ids: a restored backup, or a reset counter
    await ctx.User.create({ _id: 1, email: 'first@example.com', password_hash: 'x', role: 'user' });
    const res = await createUser({ email: 'second@example.com', password: 'password-123', access_token: MASTER_KEY });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: 2, email: 'second@example.com' });
    expect((await ctx.User.find().sort({ _id: 1 }).lean()).map((u) => [u._id, u.email])).toEqual([
      [1, 'first@example.com'],
      [2, 'second@example.com'],
    ]);
  });

  it.each([
    [{ email: 'not-an-email', password: 'password-123' }, 'email', 'email address'],
    [{ email: '', password: 'password-123' }, 'email', 'email address'],
    [{ password: 'password-123' }, 'email', 'is required'],
    [{ email: 'a@example.com', password: 'short1' }, 'password', 'too weak'],
    [{ email: 'a@example.com', password: 'onlyletters' }, 'password', 'too weak'],
    [{ email: 'a@example.com', password: '1234567890' }, 'password', 'too weak'],
    [{ email: 'a@example.com', password: 'x1'.repeat(65) }, 'password', 'at most 128'],
    [{ email: 'a@example.com' }, 'password', 'is required'],
    [{ email: 'a@example.com', password: 'password-123', role: 'root' }, 'role', ''],
    [{ email: 'a@example.com', password: 'password-123', name: 'Ana' }, 'name', 'not an accepted field'],
  ])('rejects %j with 400 naming %s, storing nothing', async (body, field, message) => {
    const res = await createUser({ ...body, access_token: MASTER_KEY });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.fields).toEqual([{ field, message: expect.stringContaining(message) }]);
    expect(await ctx.User.countDocuments()).toBe(0);
  });

  it('answers 401 for a missing or wrong master key before looking at the fields', async () => {
    for (const body of [{ email: 'a@example.com', password: 'password-123' }, { email: 'bad', access_token: 'wrong-key' }]) {
      const res = await createUser(body);
      expect(res.status).toBe(401);
      expect(res.body.error).toEqual({ code: 'unauthorized', message: expect.stringContaining('master key') });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="news"');
    }
    expect(await ctx.User.countDocuments()).toBe(0);
  });

  it('does not take a user token in place of the master key', async () => {
    const token = await ctx.tokenFor('admin');
    const res = await createUser({ email: 'x@example.com', password: 'password-123', access_token: token });
    expect(res.status).toBe(401);
  });

  it('refuses operator-shaped fields', async () => {
    const res = await createUser({ email: { $gt: '' }, password: 'password-123', access_token: MASTER_KEY });
    expect(res.status).toBe(400);
    expect(await ctx.User.countDocuments()).toBe(0);
  });
});

describe('GET /users/me', () => {
  it('answers the signed-in user, without the hash', async () => {
    const created = await ctx.createUser('me@example.com');
    const token = await ctx.signIn('me@example.com');
    const res = await request(ctx.app).get('/users/me').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
    expect(JSON.stringify(res.body)).not.toMatch(/hash|password/);
  });

  it('answers 401 when signed out', async () => {
    const res = await request(ctx.app).get('/users/me');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="news"');
    expect(res.body.error.code).toBe('unauthorized');
  });
});

describe('admin routes', () => {
  it('lets an admin list users in pages with a total, read one and delete one', async () => {
    const adminToken = await ctx.tokenFor('admin', 'admin@example.com');
    await ctx.createUser('b@example.com');
    await ctx.createUser('c@example.com');
    const first = await request(ctx.app).get('/users?limit=2').set('Authorization', `Bearer ${adminToken}`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 3, has_more: true, next_cursor: expect.any(String) });
    expect(first.body.data.map((u: { email: string }) => u.email)).toEqual(['admin@example.com', 'b@example.com']);
    const second = await request(ctx.app).get(`/users?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`).set('Authorization', `Bearer ${adminToken}`);
    expect(second.body).toEqual({ total: 3, has_more: false, data: [expect.objectContaining({ email: 'c@example.com' })] });

    const one = await request(ctx.app).get('/users/2').set('Authorization', `Bearer ${adminToken}`);
    expect(one.body).toEqual({ id: 2, email: 'b@example.com', role: 'user', createdAt: expect.any(String) });

    await request(ctx.app).delete('/users/2').set('Authorization', `Bearer ${adminToken}`).expect(204);
    expect(await ctx.User.findById(2).lean()).toBeNull();
    const again = await request(ctx.app).delete('/users/2').set('Authorization', `Bearer ${adminToken}`);
    expect(again.status).toBe(404);
    expect(again.body.error).toEqual({ code: 'not_found', message: 'User 2 not found' });
  });

  it('takes limit up to 200; more is a 400 naming limit', async () => {
    const adminToken = await ctx.tokenFor('admin', 'admin@example.com');
    await ctx.createUser('b@example.com');
    const whole = await request(ctx.app).get('/users?limit=200').set('Authorization', `Bearer ${adminToken}`);
    expect(whole.status).toBe(200);
    expect(whole.body).toMatchObject({ total: 2, has_more: false });
    const over = await request(ctx.app).get('/users?limit=201').set('Authorization', `Bearer ${adminToken}`);
    expect(over.status).toBe(400);
    expect(over.body.error.fields).toEqual([{ field: 'limit', message: expect.stringContaining('200') }]);
  });

  it('answers 403 to a plain user and changes nothing', async () => {
    const token = await ctx.tokenFor('user', 'plain@example.com');
    for (const [method, path] of [
      ['get', '/users'],
      ['get', '/users/1'],
      ['delete', '/users/1'],
    ] as const) {
      const res = await request(ctx.app)[method](path).set('Authorization', `Bearer ${token}`);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }
    expect(await ctx.User.countDocuments()).toBe(1);
  });

  it('answers 401 without a token and 400 for a bad id or cursor', async () => {
    expect((await request(ctx.app).get('/users')).status).toBe(401);
    const token = await ctx.tokenFor('admin');
    const badId = await request(ctx.app).get('/users/abc').set('Authorization', `Bearer ${token}`);
    expect(badId.status).toBe(400);
    expect(badId.body.error.fields).toEqual([{ field: 'id', message: expect.any(String) }]);
    const badCursor = await request(ctx.app).get('/users?cursor=forged').set('Authorization', `Bearer ${token}`);
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.error.code).toBe('invalid_cursor');
  });
});
