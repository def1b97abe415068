import type { ErrorDescription } from '@lib/errors';
import { defineRoute } from '@lib/routing';
import { z } from '@lib/validation';
import pino from 'pino';
import request from 'supertest';
import { buildServiceApp } from './build-app';
import { addItem, getItem, testAppOptions } from './test-app.fixture';
import { createLifecycle } from './lifecycle';

const items = [getItem, addItem];

function build(isReady = jest.fn(async () => true)) {
  const lifecycle = createLifecycle();
  const app = buildServiceApp(
    testAppOptions({ routes: items, errorFormat: (e: ErrorDescription) => ({ error: { code: e.code, message: e.message } }), isReady, lifecycle, bodyLimit: '1kb' }),
  );
  return { app, lifecycle, isReady };
}

describe('buildServiceApp', () => {
  it('sets the configured response headers on every response, errors included', async () => {
    const app = buildServiceApp(testAppOptions({ routes: items, responseHeaders: { 'X-API-Version': '2.3.4' } }));
    for (const path of ['/items/1', '/nope', '/healthz']) {
      expect((await request(app).get(path)).headers['x-api-version']).toBe('2.3.4');
    }
  });

  it('logs one line per request naming the route template of the route table', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'info', base: undefined }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const app = buildServiceApp({ logger, routes: items, openapi: { title: 'Items', version: '1.0.0' }, errorFormat: (e: ErrorDescription) => ({ code: e.code }), isReady: async () => true, lifecycle: createLifecycle() });
    await request(app).get('/items/17').set('X-Request-Id', 'abc').expect(200);
    for (let i = 0; i < 50 && lines.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(lines).toEqual([{ level: 30, time: expect.any(Number), id: 'abc', method: 'GET', route: '/items/:id', status: 200, ms: expect.any(Number) }]);
  });

  it('answers /healthz with 200', async () => {
    const res = await request(build().app).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('answers /readyz following isReady', async () => {
    const ready = jest.fn(async () => true);
    const { app } = build(ready);
    const up = await request(app).get('/readyz');
    expect(up.status).toBe(200);
    expect(up.body).toEqual({ status: 'ready' });
    expect(up.headers['cache-control']).toBe('no-store');
    ready.mockResolvedValue(false);
    const down = await request(app).get('/readyz');
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ status: 'database_unavailable' });
  });

  it('answers /readyz with 503 once shutting down, without asking the database', async () => {
    const { app, lifecycle, isReady } = build();
    lifecycle.shuttingDown = true;
    const res = await request(app).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'shutting_down' });
    expect(isReady).not.toHaveBeenCalled();
  });

  it('serves /openapi.json listing the health routes and the app routes', async () => {
    const res = await request(build().app).get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.info).toEqual({ title: 'Items', version: '1.0.0', license: expect.objectContaining({ identifier: 'LicenseRef-Proprietary' }) });
    expect(Object.keys(res.body.paths).sort()).toEqual(['/healthz', '/items', '/items/{id}', '/openapi.json', '/readyz']);
    expect(res.body.paths['/readyz'].get.responses).toHaveProperty('503');
    expect(res.body.paths['/items/{id}'].get.parameters[0]).toMatchObject({ in: 'path', name: 'id', required: true });
    expect(res.body.paths['/items'].post.requestBody.content).toHaveProperty('application/json');
  });

  it('serves the app routes with validation', async () => {
    const { app } = build();
    expect((await request(app).get('/items/7')).body).toEqual({ id: 7 });
    const bad = await request(app).get('/items/x');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_failed');
    const created = await request(app).post('/items').send({ name: 'A' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ name: 'A' });
  });

  it('applies the body limit and parse errors through the given format', async () => {
    const { app } = build();
    const big = await request(app).post('/items').send({ name: 'x'.repeat(2000) });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('payload_too_large');
    const malformed = await request(app).post('/items').set('Content-Type', 'application/json').send('{');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('invalid_body');
  });

  it('answers unknown paths with 404 in the given format', async () => {
    const res = await request(build().app).get('/no/such/path');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 'not_found', message: 'No route for GET /no/such/path' } });
  });

  it('parses bodies only on routes that take one: malformed JSON to an unknown path is still 404', async () => {
    const res = await request(build().app).post('/no/such/path').set('Content-Type', 'application/json').send('{oops');
    expect(res.status).toBe(404);
    const get = await request(build().app).get('/items/1').set('Content-Type', 'application/json').send('{oops');
    expect(get.status).toBe(200);
  });

  it('answers 405 for other methods on known paths, health included', async () => {
    const { app } = build();
    const items405 = await request(app).delete('/items');
    expect(items405.status).toBe(405);
    expect(items405.headers.allow).toBe('POST, OPTIONS');
    const health405 = await request(app).post('/healthz');
    expect(health405.status).toBe(405);
    expect(health405.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('sets the API security headers, a request id, and no X-Powered-By', async () => {
    const res = await request(build().app).get('/healthz');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(res.headers.etag).toBeUndefined();
  });

  it('is case-sensitive about paths', async () => {
    const res = await request(build().app).get('/HEALTHZ');
    expect(res.status).toBe(404);
  });
});

describe('per-route body limits', () => {
  const small = defineRoute({
    method: 'post',
    path: '/small',
    auth: 'public',
    summary: 'Takes a small body',
    request: { body: z.strictObject({ name: z.string() }), bodyLimit: '100b' },
    responses: { 201: { description: 'Added', schema: z.object({ name: z.string() }) } },
    handler: ({ body }) => ({ status: 201, body }),
  });
  const options = { bodyLimit: '1kb' };

  it('a route with its own limit refuses a larger body with 413; other routes keep the app limit', async () => {
    const app = buildServiceApp(testAppOptions({ ...options, routes: [...items, small] }));
    const name = 'x'.repeat(200);
    expect((await request(app).post('/small').send({ name: 'ok' })).status).toBe(201);
    const refused = await request(app).post('/small').send({ name });
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual({ error: { code: 'payload_too_large' } });
    expect((await request(app).post('/items').send({ name })).status).toBe(201);
  });

  it('a route limit above the app limit is a start-up error', () => {
    const large = { ...small, request: { ...small.request, bodyLimit: '2kb' } };
    expect(() => buildServiceApp(testAppOptions({ ...options, routes: [large] }))).toThrow(/exceeds the app's/);
  });
});
