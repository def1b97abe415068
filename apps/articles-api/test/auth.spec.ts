import request from 'supertest';
import { setupArticlesApp } from './setup-app';

const KEY = 'a-long-enough-test-api-key';
const ctx = setupArticlesApp({ apiKey: KEY });

describe('writes protected by ARTICLES_API_KEY', () => {
  it('refuses a create without a key: 401, WWW-Authenticate, nothing stored', async () => {
    const res = await request(ctx.app).post('/articles').send({ title: 'a', content: 'b' });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.body).toEqual({ status: false, code: 'unauthorized', message: expect.stringContaining('X-API-Key') });
    expect(await ctx.Article.countDocuments()).toBe(0);
  });

  it('refuses a wrong key', async () => {
    const res = await request(ctx.app).post('/articles').set('X-API-Key', 'wrong').send({ title: 'a', content: 'b' });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ status: false, message: 'The API key is not valid' });
    expect(await ctx.Article.countDocuments()).toBe(0);
  });

  it('accepts the key as X-API-Key or as a Bearer token', async () => {
    await request(ctx.app).post('/articles').set('X-API-Key', KEY).send({ title: 'a', content: 'b' }).expect(201);
    await request(ctx.app).post('/articles').set('Authorization', `Bearer ${KEY}`).send({ title: 'c', content: 'd' }).expect(201);
    expect(await ctx.Article.countDocuments()).toBe(2);
  });

  it('protects PUT and DELETE, and leaves the article untouched', async () => {
    await request(ctx.app).post('/articles').set('X-API-Key', KEY).send({ title: 'a', content: 'b' }).expect(201);
    await request(ctx.app).put('/articles/1').send({ title: 'x', content: 'y' }).expect(401);
    await request(ctx.app).delete('/articles/1').expect(401);
    expect(await ctx.Article.findById(1).lean()).toMatchObject({ title: 'a', content: 'b' });
  });

  it('checks the key before the body: an unauthenticated bad body is 401, not 400', async () => {
    const res = await request(ctx.app).post('/articles').send({ nonsense: true });
    expect(res.status).toBe(401);
  });

  it('leaves reads open', async () => {
    await request(ctx.app).get('/articles').expect(200);
    await request(ctx.app).get('/articles/1').expect(404);
  });
});
