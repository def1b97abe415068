import { createHmac } from 'node:crypto';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { JWT_SECRET, MASTER_KEY, setupNewsApp } from './setup-app';

const ctx = setupNewsApp();

const signIn = (email: string, password: string, key: string | null) =>
  request(ctx.app)
    .post('/auth')
    .auth(email, password)
    .send(key === null ? {} : { access_token: key });

const me = (token: string) => request(ctx.app).get('/users/me').set('Authorization', `Bearer ${token}`);

describe('POST /auth', () => {
  it('answers 201 with a JWT (HS256, user id, expiry) and the user', async () => {
    const user = await ctx.createUser('ana@example.com', 'password-123');
    const res = await signIn('ana@example.com', 'password-123', MASTER_KEY);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ token: expect.any(String), user });
    const decoded = jwt.verify(res.body.token, JWT_SECRET, { algorithms: ['HS256'], complete: true }) as jwt.Jwt & { payload: jwt.JwtPayload };
    expect(decoded.header.alg).toBe('HS256');
    expect(decoded.payload).toMatchObject({ sub: String(user.id), iss: 'news-api' });
    expect(decoded.payload.exp! - decoded.payload.iat!).toBe(3600);
    expect((await me(res.body.token)).body.email).toBe('ana@example.com');
  });

  it('accepts the email in any letter case and the master key from a form', async () => {
    await ctx.createUser('ana@example.com', 'password-123');
    const res = await request(ctx.app).post('/auth').auth('ANA@example.com', 'password-123').type('form').send({ access_token: MASTER_KEY });
    expect(res.status).toBe(201);
  });

  it.each([
    ['a wrong password', 'ana@example.com', 'password-124', MASTER_KEY],
    ['an unknown email', 'bob@example.com', 'password-123', MASTER_KEY],
    ['a wrong master key', 'ana@example.com', 'password-123', 'wrong-master-key-000000'],
    ['no master key', 'ana@example.com', 'password-123', null],
  ])('answers the same 401 for %s, revealing nothing', async (_case, email, password, key) => {
    await ctx.createUser('ana@example.com', 'password-123');
    const res = await signIn(email, password, key);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Basic realm="news", charset="UTF-8"');
    expect(res.body).toEqual({
      error: { code: 'unauthorized', message: 'Authentication failed: send HTTP Basic credentials (email and password) and the master key as access_token' },
    });
    expect(res.body.token).toBeUndefined();
  });

  it('answers 401 without Basic credentials', async () => {
    const res = await request(ctx.app).post('/auth').send({ access_token: MASTER_KEY });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
  });
});

describe('tokens', () => {
  let userId: number;
  beforeEach(async () => {
    userId = (await ctx.createUser('ana@example.com', 'password-123')).id;
  });

  const sign = (payload: object, secret = JWT_SECRET, options: jwt.SignOptions = {}) =>
    jwt.sign(payload, secret, { algorithm: 'HS256', issuer: 'news-api', subject: String(userId), expiresIn: 60, ...options });

  it('are accepted as a Bearer header, an access_token query parameter or body field', async () => {
    const token = await ctx.signIn('ana@example.com');
    expect((await me(token)).status).toBe(200);
    expect((await request(ctx.app).get(`/users/me?access_token=${token}`)).status).toBe(200);
    expect((await request(ctx.app).get('/users/me').query({ access_token: token })).body.email).toBe('ana@example.com');
  });

  it('answers 401 for an expired token, saying so', async () => {
    const expired = sign({ iat: Math.floor(Date.now() / 1000) - 120 }, JWT_SECRET, { expiresIn: 60 });
    const res = await me(expired);
    expect(res.status).toBe(401);
    expect(res.body.error).toEqual({ code: 'unauthorized', message: 'The token has expired; get a new one from POST /auth' });
    expect(res.headers['www-authenticate']).toBe('Bearer realm="news", error="invalid_token"');
  });

  it.each([
    ['never used before', false],
    ['used (and remembered as verified) before', true],
  ])('expire after JWT_EXPIRES_IN, a token %s too', async (_case, usedBefore) => {
    const token = await ctx.signIn('ana@example.com');
    if (usedBefore) expect((await me(token)).status).toBe(200);
    const { exp } = jwt.decode(token) as jwt.JwtPayload;
    jest.useFakeTimers({ now: exp! * 1000, doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'setInterval', 'queueMicrotask'] });
    try {
      const res = await me(token);
      expect(res.status).toBe(401);
      expect(res.body.error.message).toBe('The token has expired; get a new one from POST /auth');
    } finally {
      jest.useRealTimers();
    }
  });

  it.each([
    ['a tampered payload', () => tamper(sign({}), { sub: '999' })],
    ['a role claim added to the payload', () => tamper(sign({}), { role: 'admin' })],
    ['another secret', () => sign({}, 'another-secret-0123456789-0123456789')],
    ['another algorithm with the same secret', () => sign({}, JWT_SECRET, { algorithm: 'HS512' })],
    ['alg none', () => jwt.sign({ sub: String(userId), iss: 'news-api' }, '', { algorithm: 'none' })],
    ['another issuer', () => sign({}, JWT_SECRET, { issuer: 'someone-else' })],
    ['a subject that is not a user id', () => sign({}, JWT_SECRET, { subject: '$where' })],
    ['garbage', () => 'not.a.token'],
  ])('answer 401 for %s', async (_case, make) => {
    const res = await me(make());
    expect(res.status).toBe(401);
    expect(res.body.error).toEqual({ code: 'unauthorized', message: 'The token is not valid' });
  });

  describe('claims (lifetime 3600 s, clock skew 30 s)', () => {
    const now = () => Math.floor(Date.now() / 1000);
    const claims = (overrides: Record<string, unknown>) => ({ iss: 'news-api', sub: String(userId), iat: now(), exp: now() + 60, ...overrides });

    it.each([
      ['no exp', () => signRaw(JSON.stringify(claims({ exp: undefined })))],
      ['exp: 1e309 (Infinity once parsed)', () => signRaw(JSON.stringify(claims({})).replace(/"exp":\d+/, '"exp":1e309'))],
      ['an exp a year ahead', () => signRaw(JSON.stringify(claims({ exp: now() + 365 * 86400 })))],
      ['an exp beyond the lifetime plus the skew', () => signRaw(JSON.stringify(claims({ exp: now() + 3600 + 120 })))],
      ['an exp that is a string', () => signRaw(JSON.stringify(claims({ exp: String(now() + 60) })))],
      ['no iat', () => signRaw(JSON.stringify(claims({ iat: undefined })))],
      ['an iat in the future', () => signRaw(JSON.stringify(claims({ iat: now() + 120 })))],
      ['a numeric sub', () => signRaw(JSON.stringify(claims({ sub: userId })))],
      ['sub 0', () => signRaw(JSON.stringify(claims({ sub: '0' })))],
      ['a sub beyond the largest safe integer', () => signRaw(JSON.stringify(claims({ sub: '9007199254740993' })))],
      ['a sub with a sign', () => signRaw(JSON.stringify(claims({ sub: `+${userId}` })))],
      ['no sub', () => signRaw(JSON.stringify(claims({ sub: undefined })))],
    ])('answer 401 with the challenge for %s', async (_case, make) => {
      const res = await me(make());
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: { code: 'unauthorized', message: 'The token is not valid' } });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="news", error="invalid_token"');
    });

    it.each([
      ['the full lifetime', () => claims({ exp: now() + 3600 })],
      ['an exp ahead within the skew', () => claims({ exp: now() + 3600 + 20 })],
      ['an iat ahead within the skew', () => claims({ iat: now() + 20 })],
    ])('accept a token with %s', async (_case, make) => {
      const res = await me(signRaw(JSON.stringify(make())));
      expect(res.status).toBe(200);
      expect(res.body.email).toBe('ana@example.com');
    });
  });

  it('stop working once the user is deleted', async () => {
    const token = await ctx.signIn('ana@example.com');
    await ctx.User.deleteOne({ _id: userId });
    const res = await me(token);
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe('The token is not valid');
  });

  it('carry no role: a promoted or demoted user is judged by the stored role', async () => {
    const token = await ctx.signIn('ana@example.com');
    expect((await request(ctx.app).get('/users').set('Authorization', `Bearer ${token}`)).status).toBe(403);
    await ctx.User.updateOne({ _id: userId }, { $set: { role: 'admin' } });
    expect((await request(ctx.app).get('/users').set('Authorization', `Bearer ${token}`)).status).toBe(200);
  });
});

/** Replaces claims of a signed token and keeps its signature. */
function tamper(token: string, claims: object): string {
  const [header, payload, signature] = token.split('.');
  const changed = { ...JSON.parse(Buffer.from(payload, 'base64url').toString()), ...claims };
  return [header, Buffer.from(JSON.stringify(changed)).toString('base64url'), signature].join('.');
}

/** An HS256 token over exactly this payload text (jwt.sign cannot write Infinity or omit iat). */
function signRaw(payload: string): string {
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const body = Buffer.from(payload).toString('base64url');
  const signature = createHmac('sha256', JWT_SECRET).update(`${header}.${body}`).digest('base64url');
  return `${header}.${body}.${signature}`;
}
