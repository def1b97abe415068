import { revocationLog } from '@lib/mongo';
import { logCommands, type CommandLog } from '@lib/testing';
import request from 'supertest';
import { setupNewsApp } from './setup-app';
import { STORED_USER_MAX_AGE_MS } from '../src/auth/token-user-cache';
import { storeUser, type StoredUser } from './sweep-fixture';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const ctx = setupNewsApp({ monitorCommands: true, storedUserMaxAgeMs: STORED_USER_MAX_AGE_MS });

// each test's users take the ids of the previous test's (the database is emptied): let what the
// previous test cached grow older than the stored-user age first
beforeEach(() => pause(STORED_USER_MAX_AGE_MS + 50));

let log: CommandLog;
beforeAll(() => {
  log = logCommands(ctx.connection);
});
afterAll(() => log.stop());

const get = (path: string, who: StoredUser) => request(ctx.app).get(path).set(who.bearer);
const userReads = () => log.commands.filter((c) => c.name === 'find' && c.collection === 'users').length;

describe('the user behind a token is cached (TOKEN_USER_TTL_MS), and revoked at once in this process', () => {
  it('a cached token still works, without reading its user again', async () => {
    const ana = await storeUser(ctx.connection, 'ana@example.com');
    log.reset();
    expect((await get('/news', ana)).status).toBe(200);
    expect(userReads()).toBe(1);
    log.reset();
    for (let i = 0; i < 3; i++) {
      const res = await get('/news?company=BHP', ana);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ total: 0, data: [], has_more: false });
    }
    expect(userReads()).toBe(0);
  });

  it('a user deleted through the API is refused at once, although its token was cached', async () => {
    const admin = await storeUser(ctx.connection, 'admin@example.com', 'admin');
    const bob = await storeUser(ctx.connection, 'bob@example.com');
    expect((await get('/news', bob)).status).toBe(200); // cached now
    expect((await request(ctx.app).delete(`/users/${bob.id}`).set(admin.bearer)).status).toBe(204);
    for (const path of ['/news', '/sources', '/companies', '/users/me']) {
      const res = await get(path, bob);
      expect(res.status).toBe(401);
      expect(res.body.error).toEqual({ code: 'unauthorized', message: 'The token is not valid' });
    }
    expect(await ctx.User.exists({ _id: bob.id })).toBeNull();
  });

  it('a role change made by hand in the database counts within 1 s: roles and /users/me use a user read at most STORED_USER_MAX_AGE_MS before', async () => {
    const ana = await storeUser(ctx.connection, 'ana@example.com');
    expect((await get('/news', ana)).status).toBe(200); // cached as a plain user
    expect((await get('/users', ana)).status).toBe(403);
    expect((await get('/users/me', ana)).body.role).toBe('user');
    await ctx.User.updateOne({ _id: ana.id }, { $set: { role: 'admin' } });
    await pause(STORED_USER_MAX_AGE_MS + 50);
    expect((await get('/users', ana)).status).toBe(200);
    expect((await get('/users/me', ana)).body.role).toBe('admin');
    await ctx.User.updateOne({ _id: ana.id }, { $set: { role: 'user' } });
    await pause(STORED_USER_MAX_AGE_MS + 50);
    const demoted = await get('/users', ana);
    expect(demoted.status).toBe(403);
    expect(demoted.body.error.code).toBe('forbidden');
    expect((await get('/users/me', ana)).body.role).toBe('user');
    expect((await request(ctx.app).post('/news/sync').set(ana.bearer)).status).toBe(403);
  });

  it('a user deleted by another process keeps its cached token for at most the lifetime (documented); /users/me and roles notice within 1 s', async () => {
    const ana = await storeUser(ctx.connection, 'ana@example.com');
    expect((await get('/news', ana)).status).toBe(200);
    await ctx.User.deleteOne({ _id: ana.id }); // another replica, or a database edit
    expect((await get('/news', ana)).status).toBe(200); // this process has not heard of it yet
    await pause(STORED_USER_MAX_AGE_MS + 50);
    // a route that reads the stored user notices, and drops the cached entry
    expect((await get('/users/me', ana)).status).toBe(401);
    expect((await get('/news', ana)).status).toBe(401);
  });

  it('GET /users/me right after another request of the user reads no user (its cached entry is under 1 s old)', async () => {
    const ana = await storeUser(ctx.connection, 'ana@example.com');
    expect((await get('/users/me', ana)).status).toBe(200);
    log.reset();
    expect((await get('/users/me', ana)).body.email).toBe('ana@example.com');
    // none, unless the revocation log was not read within its bound (a loaded machine): the cache then answers nothing
    expect(userReads()).toBe(revocationLog(ctx.connection).fresh() ? 0 : 1);
  });

  it('an invalid token is refused before any user is read', async () => {
    const ana = await storeUser(ctx.connection, 'ana@example.com');
    log.reset();
    const res = await request(ctx.app).get('/news').set('Authorization', `Bearer ${ana.token}x`);
    expect(res.status).toBe(401);
    expect(userReads()).toBe(0);
  });
});
