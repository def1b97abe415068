import { createLifecycle, createLogger } from '@lib/http';
import { connectMongo } from '@lib/mongo';
import { useTestDatabase } from '@lib/testing';
import request from 'supertest';
import { createApp } from '../src/app';
import { setupArticlesApp } from './setup-app';

const ctx = setupArticlesApp();

describe('service endpoints', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await request(ctx.app).get('/healthz')).body).toEqual({ status: 'ok' });
    const ready = await request(ctx.app).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
  });

  it('describes every route in /openapi.json (OpenAPI 3.1)', async () => {
    const res = await request(ctx.app).get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const operations = Object.entries(res.body.paths as Record<string, object>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(
      [
        'GET /healthz',
        'GET /readyz',
        'GET /openapi.json',
        'GET /articles',
        'POST /articles',
        'GET /articles/{id}',
        'PUT /articles/{id}',
        'DELETE /articles/{id}',
      ].sort(),
    );
    const post = res.body.paths['/articles'].post;
    expect(Object.keys(post.requestBody.content).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    expect(post.security).toEqual([{ apiKey: [] }]);
    expect(res.body.paths['/articles'].get.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['limit', 'offset']);
  });

  it('answers 404 in the error envelope for an unknown path', async () => {
    const res = await request(ctx.app).get('/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: false, code: 'not_found', message: 'No route for GET /nope' });
  });

  it('answers 405 with Allow for a method the path does not take', async () => {
    const res = await request(ctx.app).patch('/articles/1').send({ title: 'x' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, PUT, DELETE, OPTIONS');
    expect(res.body).toMatchObject({ status: false, code: 'method_not_allowed' });
  });

  it('routes case-sensitively: /Articles is not /articles', async () => {
    expect((await request(ctx.app).get('/Articles')).status).toBe(404);
  });

  it('sets security headers and a request id', async () => {
    const res = await request(ctx.app).get('/articles').set('X-Request-Id', 'abc-123');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['x-request-id']).toBe('abc-123');
  });
});

describe('when the database is gone', () => {
  const db = useTestDatabase();

  it('turns /readyz to 503 and answers requests 503 quickly, without internals', async () => {
    const connection = await connectMongo({ url: process.env.TEST_MONGO_URL!, dbName: db.dbName });
    const app = createApp({ connection, logger: createLogger('t', 'silent'), lifecycle: createLifecycle() });
    await connection.close();
    const ready = await request(app).get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ status: 'database_unavailable' });
    const res = await request(app).get('/articles');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual({ status: false, code: 'database_unavailable', message: expect.any(String), error_id: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toMatch(/Mongo|at \//);
  });

  it('turns /readyz to 503 while shutting down', async () => {
    const lifecycle = createLifecycle();
    const app = createApp({ connection: db.connection, logger: createLogger('t', 'silent'), lifecycle });
    lifecycle.shuttingDown = true;
    const res = await request(app).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'shutting_down' });
  });
});
