import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createLifecycle, createLogger } from '@lib/http';
import { connectMongo } from '@lib/mongo';
import { useTestDatabase } from '@lib/testing';
import request from 'supertest';
import { createApp, VERSION } from '../src/app';
import { JWT_SECRET, MASTER_KEY, setupNewsApp, TEST_PUBLISHERS } from './setup-app';

const ctx = setupNewsApp();

describe('service endpoints', () => {
  it('shows the running version at GET /version and in a header of every response', async () => {
    const res = await request(ctx.app).get('/version');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'news-api', version: VERSION });
    for (const p of ['/version', '/nope', '/healthz', '/news']) expect((await request(ctx.app).get(p)).headers['x-api-version']).toBe(VERSION);
  });

  it('keeps the version equal to the newest CHANGELOG entry', () => {
    const changelog = readFileSync(path.join(__dirname, '..', 'CHANGELOG.md'), 'utf8');
    expect(/^## \[?(\d+\.\d+\.\d+)/m.exec(changelog)?.[1]).toBe(VERSION);
  });

  it('describes every route in /openapi.json', async () => {
    const res = await request(ctx.app).get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const operations = Object.entries(res.body.paths as Record<string, object>).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    expect(operations.sort()).toEqual(
      [
        'GET /healthz',
        'GET /readyz',
        'GET /openapi.json',
        'GET /version',
        'POST /auth',
        'POST /users',
        'GET /users',
        'GET /users/me',
        'GET /users/{id}',
        'DELETE /users/{id}',
        'POST /users/me/keys',
        'GET /users/me/keys',
        'DELETE /users/me/keys/{id}',
        'GET /users/me/usage',
        'GET /news',
        'GET /news/{id}',
        'POST /news/sync',
        'GET /sources',
        'GET /companies',
      ].sort(),
    );
    expect(Object.keys(res.body.components.securitySchemes).sort()).toEqual(['apiKey', 'apiKeyQuery', 'basic', 'bearer', 'masterKey']);
    expect(res.body.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Api-Key' });
    expect(res.body.components.securitySchemes.apiKeyQuery).toMatchObject({ type: 'apiKey', in: 'query', name: 'apiKey' });
    // the routes that take an API key say so, and document its 429
    for (const [path, method] of [['/news', 'get'], ['/news/{id}', 'get'], ['/companies', 'get']]) {
      expect(res.body.paths[path][method].security).toEqual([{ bearer: [] }, { apiKey: [] }, { apiKeyQuery: [] }]);
      expect(Object.keys(res.body.paths[path][method].responses)).toContain('429');
    }
    expect(res.body.paths['/users/me/keys'].post.security).toEqual([{ bearer: [] }]);
    expect(res.body.paths['/news'].get.parameters.map((p: { name: string }) => p.name).sort()).toEqual(
      ['access_token', 'apiKey', 'company', 'cursor', 'domains', 'excludeDomains', 'from', 'language', 'limit', 'q', 'searchIn', 'sort', 'source', 'to'].sort(),
    );
    // the query language of q, its grammar and bounds
    const q = res.body.paths['/news'].get.parameters.find((p: { name: string }) => p.name === 'q');
    expect(q.schema.description).toContain('query = or; or = and *("OR" and); and = unary *(["AND"] unary)');
    expect(q.schema.description).toContain('at most 500 characters, 20 words');
  });

  it('answers unknown paths and methods in the one error body', async () => {
    const missing = await request(ctx.app).get('/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: { code: 'not_found', message: 'No route for GET /nope' } });
    const method = await request(ctx.app).put('/news');
    expect(method.status).toBe(405);
    expect(method.body.error.code).toBe('method_not_allowed');
  });

  it('answers malformed JSON with 400, never a stack trace', async () => {
    const res = await request(ctx.app).post('/users').set('Content-Type', 'application/json').send('{"email":');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_body');
    expect(JSON.stringify(res.body)).not.toMatch(/at \/|node_modules/);
  });

  it('answers /healthz and /readyz', async () => {
    await request(ctx.app).get('/healthz').expect(200, { status: 'ok' });
    await request(ctx.app).get('/readyz').expect(200, { status: 'ready' });
  });
});

describe('when the database is gone', () => {
  const db = useTestDatabase();

  it('answers 503 with an error id and no internals, and /readyz turns 503', async () => {
    const connection = await connectMongo({ url: process.env.TEST_MONGO_URL!, dbName: db.dbName });
    const app = createApp({
      connection,
      logger: createLogger('t', 'silent'),
      lifecycle: createLifecycle(),
      masterKey: MASTER_KEY,
      jwt: { secret: JWT_SECRET, expiresInSeconds: 60 },
      publishers: TEST_PUBLISHERS,
    });
    await connection.close();
    expect((await request(app).get('/readyz')).status).toBe(503);
    const res = await request(app).post('/users').send({ email: 'a@example.com', password: 'password-123', access_token: MASTER_KEY });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: { code: 'database_unavailable', message: expect.any(String), error_id: expect.any(String) } });
    expect(JSON.stringify(res.body)).not.toMatch(/Mongo|at \//);
  });
});
