import { z } from 'zod';
import { buildOpenApi } from './openapi';
import { defineRoute, type AnyRoute } from './route';
import { pathId, queryInt, text } from '@lib/validation';

const noop = () => undefined;
const item = z.object({ id: z.number(), name: z.string() });

const routes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/items',
    summary: 'List items',
    tags: ['items'],
    request: { query: z.strictObject({ page_size: queryInt({ min: 1, max: 50, description: 'Items per page' }).optional() }) },
    responses: { 200: { description: 'A page of items', schema: z.array(item) } },
    handler: noop,
  }),
  defineRoute({
    method: 'post',
    path: '/items',
    summary: 'Add an item',
    description: 'Creates one item.',
    security: ['apiKey'],
    request: { body: z.strictObject({ name: text({ max: 40 }) }), bodyTypes: ['json', 'form'] },
    responses: { 201: { description: 'Added', schema: item }, 400: { description: 'Invalid input' } },
    handler: noop,
  }),
  defineRoute({
    method: 'get',
    path: '/items/:id/notes/:note_id',
    summary: 'One note of an item',
    request: { params: z.strictObject({ id: pathId, note_id: pathId }) },
    responses: { 200: { description: 'The note' }, 404: { description: 'No such note' } },
    handler: noop,
  }),
];

const extra = defineRoute({ method: 'get', path: '/healthz', summary: 'Alive', responses: { 200: { description: 'ok' } }, handler: noop });

const doc = buildOpenApi(routes, {
  title: 'Items API',
  version: '1.2.3',
  description: 'Test service',
  responseMediaTypes: ['application/json', 'application/xml'],
  securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
  extraRoutes: [extra],
});

type Operation = {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown;
  parameters?: Array<{ in: string; name: string; required?: boolean; schema: Record<string, unknown> }>;
  requestBody?: { required: boolean; content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Record<string, unknown> }> }>;
};
const op = (path: string, method: string) => (doc.paths as Record<string, Record<string, Operation>>)[path][method];

describe('buildOpenApi', () => {
  it('is an OpenAPI 3.1.0 document with the given info', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toEqual({ title: 'Items API', version: '1.2.3', description: 'Test service' });
  });

  it('lists every route, extra routes included, with Express params converted to {name}', () => {
    expect(Object.keys(doc.paths ?? {}).sort()).toEqual(['/healthz', '/items', '/items/{id}/notes/{note_id}']);
    expect(Object.keys(doc.paths?.['/items'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(op('/healthz', 'get').summary).toBe('Alive');
  });

  it('describes path parameters as required integers', () => {
    const params = op('/items/{id}/notes/{note_id}', 'get').parameters ?? [];
    expect(params.map((p) => [p.in, p.name, p.required])).toEqual([
      ['path', 'id', true],
      ['path', 'note_id', true],
    ]);
    expect(params[0].schema).toMatchObject({ type: 'integer', minimum: 1 });
  });

  it('describes query parameters with bounds and description, optional ones not required', () => {
    const [pageSize, ...rest] = op('/items', 'get').parameters ?? [];
    expect(rest).toEqual([]);
    expect(pageSize).toMatchObject({ in: 'query', name: 'page_size' });
    expect(pageSize.required).not.toBe(true);
    expect(pageSize.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 50, description: 'Items per page' });
  });

  it('describes the request body for each accepted media type', () => {
    const body = op('/items', 'post').requestBody;
    expect(body?.required).toBe(true);
    expect(Object.keys(body?.content ?? {})).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    expect(body?.content['application/json'].schema).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string', maxLength: 40, minLength: 1 } },
      required: ['name'],
      additionalProperties: false,
    });
    expect(op('/items', 'get').requestBody).toBeUndefined();
  });

  it('describes every response, with content in each response media type when a schema is given', () => {
    const responses = op('/items', 'post').responses;
    expect(Object.keys(responses).sort()).toEqual(['201', '400']);
    expect(responses['201'].description).toBe('Added');
    expect(Object.keys(responses['201'].content ?? {})).toEqual(['application/json', 'application/xml']);
    expect(responses['201'].content?.['application/json'].schema).toMatchObject({ type: 'object', required: ['id', 'name'] });
    expect(responses['400']).toEqual({ description: 'Invalid input' });
    expect(op('/items', 'get').responses['200'].content?.['application/xml'].schema).toMatchObject({ type: 'array' });
  });

  it('carries summary, description, tags and security where set', () => {
    const post = op('/items', 'post');
    expect(post.summary).toBe('Add an item');
    expect(post.description).toBe('Creates one item.');
    expect(post.security).toEqual([{ apiKey: [] }]);
    expect(doc.components?.securitySchemes).toEqual({ apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } });
    const list = op('/items', 'get');
    expect(list.tags).toEqual(['items']);
    expect(list.security).toBeUndefined();
    expect(list.description).toBeUndefined();
  });

  it('defaults to JSON responses and leaves out components when no schemes are given', () => {
    const plain = buildOpenApi([routes[0]], { title: 'x', version: '0' });
    expect(plain.components).toBeUndefined();
    const ok = (plain.paths as Record<string, Record<string, Operation>>)['/items'].get.responses['200'];
    expect(Object.keys(ok.content ?? {})).toEqual(['application/json']);
    expect(JSON.parse(JSON.stringify(plain))).toEqual(plain);
  });
});
