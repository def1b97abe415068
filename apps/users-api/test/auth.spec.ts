import request from 'supertest';
import { setupUsersApp } from './setup-app';

const KEY = 'users-test-api-key-0123';
const ctx = setupUsersApp({ apiKey: KEY });

describe('POST /users protected by USERS_API_KEY', () => {
  it('refuses without a key or with a wrong one, storing nothing', async () => {
    const missing = await request(ctx.app).post('/users?name=A&age=1&city=B');
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    expect(missing.body.error.code).toBe('unauthorized');
    const wrong = await request(ctx.app).post('/users?name=A&age=1&city=B').set('X-API-Key', 'nope');
    expect(wrong.status).toBe(401);
    expect(await ctx.User.countDocuments()).toBe(0);
  });

  it('accepts the key and leaves GET open', async () => {
    await request(ctx.app).post('/users?name=A&age=1&city=B').set('X-API-Key', KEY).expect(200);
    const list = await request(ctx.app).get('/users');
    expect(list.body.data).toEqual([{ name: 'A', age: 1, city: 'B' }]);
  });
});
