import { errorHandler, unauthorized, type ErrorDescription } from '@lib/errors';
import express, { type RequestHandler } from 'express';
import request from 'supertest';
import { z } from 'zod';
import v8 from 'node:v8';
import { defineRoute, mergedResponses, mountRoutes, type AnyRoute } from './route';
import { formArray, pathId, queryInt, text } from '@lib/validation';

const seen: Array<{ params: unknown; query: unknown; body: unknown }> = [];

/** What the fixture routes answer: the input their handler got. */
const echoed = z.object({ params: z.unknown(), query: z.unknown(), body: z.unknown() });
const echo =
  <S extends number>(status: S) =>
  ({ params, query, body }: { params: unknown; query: unknown; body: unknown }) => {
    const input = { params, query, body };
    seen.push(input);
    return { status, body: input };
  };

/** Over 1,000 characters (what Express's send() copied into a Buffer) and not ASCII: its bytes are not its length. */
const LONG_TEXT = 'Zoë paid €3 at the café. '.repeat(60);

const requireKey: RequestHandler = (req, _res, next) => next(req.headers['x-api-key'] === 'k' ? undefined : unauthorized());

const routes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/items',
    auth: 'public',
    summary: 'List items',
    request: { query: z.strictObject({ page_size: queryInt({ min: 1, max: 50 }).optional() }) },
    responses: { 200: { description: 'Items', schema: echoed } },
    handler: echo(200),
  }),
  defineRoute({
    method: 'post',
    path: '/items',
    auth: 'public',
    summary: 'Add an item',
    before: [requireKey],
    request: { body: z.strictObject({ name: text({ max: 20 }), kind: z.enum(['PERSON', 'COMPANY']) }) },
    responses: { 201: { description: 'Added', schema: echoed } },
    handler: echo(201),
  }),
  defineRoute({
    method: 'get',
    path: '/items/:id',
    auth: 'public',
    summary: 'One item',
    request: { params: z.strictObject({ id: pathId }) },
    responses: { 200: { description: 'The item', schema: echoed } },
    handler: echo(200),
  }),
  defineRoute({
    method: 'patch',
    path: '/items/:id',
    auth: 'public',
    summary: 'Change an item; every field optional',
    request: { params: z.strictObject({ id: pathId }), body: z.strictObject({ name: z.string().optional() }) },
    responses: { 200: { description: 'Changed', schema: echoed } },
    handler: echo(200),
  }),
  defineRoute({
    method: 'post',
    path: '/forms',
    auth: 'public',
    summary: 'Accepts JSON or a form',
    request: { body: z.strictObject({ name: z.string(), tags: formArray(z.string()).optional() }), bodyTypes: ['json', 'form'] },
    responses: { 201: { description: 'Added', schema: echoed } },
    handler: echo(201),
  }),
  defineRoute({
    method: 'post',
    path: '/xml',
    auth: 'public',
    summary: 'Accepts JSON or XML',
    request: { body: z.strictObject({ name: z.string(), tags: z.array(z.string()).optional(), size: z.number().optional() }), bodyTypes: ['json', 'xml'] },
    responses: { 201: { description: 'Added', schema: echoed } },
    handler: echo(201),
  }),
  defineRoute({
    method: 'get',
    path: '/long',
    auth: 'public',
    summary: 'A long answer in non-ASCII text',
    responses: { 200: { description: 'The text', schema: z.object({ text: z.string() }) } },
    handler: () => ({ status: 200, body: { text: LONG_TEXT } }),
  }),
];

const app = express();
app.use(express.json(), express.urlencoded({ extended: false }), express.text({ type: ['application/xml', 'text/xml'] }));
const router = express.Router();
mountRoutes(router, routes);
app.use(router);
app.use(errorHandler({ format: (e: ErrorDescription) => ({ code: e.code, message: e.message, details: e.details }) }));

beforeEach(() => {
  seen.length = 0;
});

describe('mountRoutes: validation', () => {
  it('passes parsed query values to the handler', async () => {
    const res = await request(app).get('/items?page_size=7');
    expect(res.status).toBe(200);
    expect(res.body.query).toEqual({ page_size: 7 });
    expect(typeof seen[0].query).toBe('object');
    expect((seen[0].query as { page_size: number }).page_size).toBe(7);
  });

  it('rejects a bad query value with 400 naming the parameter', async () => {
    const res = await request(app).get('/items?page_size=1e3');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.details).toEqual([{ field: 'page_size', message: 'must be a whole number from 1 to 50' }]);
    expect(seen).toHaveLength(0);
  });

  it('rejects an unknown query parameter and a repeated one', async () => {
    const unknown = await request(app).get('/items?pagesize=5');
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toEqual([{ field: 'pagesize', message: 'is not an accepted parameter' }]);
    const repeated = await request(app).get('/items?page_size=1&page_size=2');
    expect(repeated.status).toBe(400);
    expect(repeated.body.details[0].field).toBe('page_size');
  });

  it('rejects operator-looking query keys before the schema sees them', async () => {
    const res = await request(app).get('/items?%24where=1');
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('"$where"');
  });

  it('parses path ids and rejects bad ones', async () => {
    const ok = await request(app).get('/items/12');
    expect(ok.status).toBe(200);
    expect(ok.body.params).toEqual({ id: 12 });
    const bad = await request(app).get('/items/012');
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ field: 'id', message: 'must be a positive whole number' }]);
  });

  it('validates the JSON body: missing field, wrong enum case, unknown key', async () => {
    const res = await request(app).post('/items').set('X-API-Key', 'k').send({ kind: 'person', colour: 'red' });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual(
      expect.arrayContaining([
        { field: 'name', message: 'is required' },
        { field: 'kind', message: expect.stringContaining('PERSON') },
        { field: 'colour', message: 'is not an accepted field' },
      ]),
    );
    expect(res.body.details).toHaveLength(3);
    expect(seen).toHaveLength(0);
  });

  it('accepts a valid JSON body', async () => {
    const res = await request(app).post('/items').set('X-API-Key', 'k').send({ name: 'Ada', kind: 'PERSON' });
    expect(res.status).toBe(201);
    expect(res.body.body).toEqual({ name: 'Ada', kind: 'PERSON' });
  });

  it('accepts application/json with a trailing semicolon', async () => {
    const res = await request(app)
      .post('/items')
      .set('X-API-Key', 'k')
      .set('Content-Type', 'application/json;')
      .send(JSON.stringify({ name: 'Ada', kind: 'COMPANY' }));
    expect(res.status).toBe(201);
  });

  it('rejects operator keys in the body', async () => {
    const res = await request(app).patch('/items/1').send({ name: { $ne: null } });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('"$ne"');
    expect(seen).toHaveLength(0);
  });

  it('runs `before` middleware ahead of validation', async () => {
    const res = await request(app).post('/items').send({ bogus: true });
    expect(res.status).toBe(401);
    expect(seen).toHaveLength(0);
  });
});

describe('mountRoutes: bodies and media types', () => {
  it('answers 415 when a body is sent with the wrong content type', async () => {
    const res = await request(app).post('/items').set('X-API-Key', 'k').set('Content-Type', 'text/plain').send('name=Ada');
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('unsupported_media_type');
    expect(res.body.message).toBe('Content-Type must be application/json (got text/plain)');
  });

  it('answers 415 for a form body on a JSON-only route', async () => {
    const res = await request(app).post('/items').set('X-API-Key', 'k').type('form').send('name=Ada&kind=PERSON');
    expect(res.status).toBe(415);
    expect(seen).toHaveLength(0);
  });

  it('gives the schema {} when no body is sent', async () => {
    const patched = await request(app).patch('/items/3');
    expect(patched.status).toBe(200);
    expect(patched.body.body).toEqual({});
    const missing = await request(app).post('/items').set('X-API-Key', 'k');
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual(
      expect.arrayContaining([
        { field: 'name', message: 'is required' },
        { field: 'kind', message: 'is required' },
      ]),
    );
  });

  it('accepts a form body where bodyTypes includes form, decoding array fields', async () => {
    const res = await request(app).post('/forms').type('form').send('name=Ada&tags=%5B%22a%22%2C%22b%22%5D');
    expect(res.status).toBe(201);
    expect(res.body.body).toEqual({ name: 'Ada', tags: ['a', 'b'] });
  });

  it('accepts JSON on the same route', async () => {
    const res = await request(app).post('/forms').send({ name: 'Ada', tags: ['x'] });
    expect(res.status).toBe(201);
    expect(res.body.body).toEqual({ name: 'Ada', tags: ['x'] });
  });

  it('names both accepted types in the 415 of a json+form route', async () => {
    const res = await request(app).post('/forms').set('Content-Type', 'application/xml').send('<a/>');
    expect(res.status).toBe(415);
    expect(res.body.message).toContain('application/json or application/x-www-form-urlencoded');
  });
});

describe('mountRoutes: XML bodies', () => {
  it('reads XML where bodyTypes includes xml, into what the schema wants', async () => {
    for (const type of ['application/xml', 'text/xml']) {
      const res = await request(app).post('/xml').set('Content-Type', type).send('<item><name>Ada</name><tags>a</tags><size>2.0</size></item>');
      expect(res.status).toBe(201);
      expect(res.body.body).toEqual({ name: 'Ada', tags: ['a'], size: 2 });
    }
  });

  it('refuses malformed XML with 400 invalid_body before the handler; JSON still works on the route', async () => {
    const malformed = await request(app).post('/xml').set('Content-Type', 'application/xml').send('<item><name>Ada</item>');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('invalid_body');
    expect(seen).toHaveLength(0);
    const json = await request(app).post('/xml').send({ name: 'Ada' });
    expect(json.status).toBe(201);
  });
});

describe('mountRoutes: methods', () => {
  it('answers 405 with Allow for a method not mounted on a known path', async () => {
    const res = await request(app).delete('/items');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    expect(res.body.code).toBe('method_not_allowed');
    expect(res.body.message).toContain('DELETE');
  });

  it('lists the methods of a parameterised path', async () => {
    const res = await request(app).put('/items/5').send({});
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, PATCH, OPTIONS');
  });

  it('answers OPTIONS with 204 and Allow', async () => {
    const res = await request(app).options('/items');
    expect(res.status).toBe(204);
    expect(res.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    expect(res.text).toBe('');
  });

  it('serves HEAD for a GET route', async () => {
    const res = await request(app).head('/items');
    expect(res.status).toBe(200);
  });

  it("writes an answer's text with its media type and its length in bytes; HEAD gets the same headers and no body", async () => {
    const text = JSON.stringify({ text: LONG_TEXT });
    const get = await request(app).get('/long');
    expect(get.status).toBe(200);
    expect(get.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(get.headers['content-length']).toBe(String(Buffer.byteLength(text)));
    expect(Number(get.headers['content-length'])).toBeGreaterThan(text.length);
    expect(get.text).toBe(text);
    const head = await request(app).head('/long');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.text ?? '').toBe('');
  });

  it('leaves unknown paths to the next handler', async () => {
    const res = await request(app).get('/nothing-here');
    expect(res.status).toBe(404);
  });
});

describe('mergedResponses', () => {
  const ok = { description: 'the contact' };
  const missing = { description: 'no such contact' };
  const busy = { description: 'busy' };

  it('holds every part, a later part winning on a shared status', () => {
    const merged = mergedResponses({ 200: ok, 404: missing }, undefined, { 404: busy, 503: busy });
    expect(merged).toEqual({ 200: ok, 404: busy, 503: busy });
    expect(Object.keys(merged)).toEqual(['200', '404', '503']);
    expect({ ...merged, 405: ok }).toEqual({ 200: ok, 404: busy, 405: ok, 503: busy });
  });

  it('keeps the statuses in a dictionary, where a spread keeps an array as long as the largest (V8)', () => {
    v8.setFlagsFromString('--allow-natives-syntax');
    const dictionary = new Function('object', 'return %HasDictionaryElements(object)') as (object: object) => boolean;
    v8.setFlagsFromString('--no-allow-natives-syntax');
    expect(dictionary(mergedResponses({ 200: ok }, { 503: busy }))).toBe(true);
    expect(dictionary({ ...{ 200: ok }, ...{ 503: busy } })).toBe(false);
  });
});
