import request from 'supertest';
import { setupNewsApp } from './setup-app';
import { storeUser } from './sweep-fixture';

// a short lifetime stands in for TOKEN_USER_TTL_MS (10 s)
const TTL_MS = 300;
const ctx = setupNewsApp({ tokenUserTtlMs: TTL_MS });

it('a user deleted by another process is refused once the cached entry expires', async () => {
  const ana = await storeUser(ctx.connection, 'ana@example.com');
  expect((await request(ctx.app).get('/news').set(ana.bearer)).status).toBe(200);
  await ctx.User.deleteOne({ _id: ana.id }); // another replica, or a database edit
  await new Promise((resolve) => setTimeout(resolve, TTL_MS + 50));
  const res = await request(ctx.app).get('/news').set(ana.bearer);
  expect(res.status).toBe(401);
  expect(res.body.error).toEqual({ code: 'unauthorized', message: 'The token is not valid' });
});
