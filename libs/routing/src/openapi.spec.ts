import { z } from 'zod';
import { buildOpenApi, derivedOperationId } from './openapi';
import { defineRoute, resolveAuth, routeDefiner, type AnyRoute } from './route';
import { pathId, queryInt, text } from '@lib/validation';

const noop = () => ({ status: 204 }) as never;
const withKey = routeDefiner<{ apiKey: { user: undefined } }>();
const item = z.object({ id: z.number(), name: z.string() });

const routes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/items',
    auth: 'public',
    summary: 'List items',
    tags: ['items'],
    request: { query: z.strictObject({ page_size: queryInt({ min: 1, max: 50, description: 'Items per page' }).optional() }) },
    responses: { 200: { description: 'A page of items', schema: z.array(item) } },
    handler: noop,
  }),
  withKey({
    method: 'post',
    path: '/items',
    auth: 'apiKey',
    summary: 'Add an item',
    description: 'Creates one item.',
    request: { body: z.strictObject({ name: text({ max: 40 }) }), bodyTypes: ['json', 'form'] },
    responses: { 201: { description: 'Added', schema: item }, 400: { description: 'Invalid input' } },
    handler: noop,
  }),
  defineRoute({
    method: 'get',
    path: '/items/:id/notes/:note_id',
    auth: 'public',
    summary: 'One note of an item',
    request: { params: z.strictObject({ id: pathId, note_id: pathId }) },
    responses: { 200: { description: 'The note' }, 404: { description: 'No such note' } },
    handler: noop,
  }),
];

const extra = defineRoute({ method: 'get', path: '/healthz', auth: 'public', summary: 'Alive', responses: { 200: { description: 'ok' } }, handler: noop });

const doc = buildOpenApi(resolveAuth(routes, { apiKey: { before: [], security: ['apiKey'] } }), {
  title: 'Items API',
  version: '1.2.3',
  description: 'Test service',
  responseMediaTypes: ['application/json', 'application/xml'],
  securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
  extraRoutes: [extra],
});

type Operation = {
  operationId?: string;
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
    expect(doc.info).toEqual({ title: 'Items API', version: '1.2.3', description: 'Test service', license: expect.objectContaining({ identifier: 'LicenseRef-Proprietary' }) });
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
    expect(Object.keys(responses).sort()).toEqual(['201', '400', '405']);
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
    expect(list.security).toEqual([]);
    expect(list.description).toBeUndefined();
  });

  it('gives every operation an operationId derived from its method and path unless declared, and a server', () => {
    expect(op('/items', 'get').operationId).toBe('getItems');
    expect(op('/items', 'post').operationId).toBe('postItems');
    expect(derivedOperationId('delete', '/dev/api/contacts/:contact_id/notes/:note_id', '/dev/api')).toBe('deleteContactsByContactIdNotesByNoteId');
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('describes a schema named with meta({ id }) once, as a component every use refers to', () => {
    const named = z.object({ id: z.number() }).meta({ id: 'Thing' });
    const both = [0, 1].map((i) =>
      defineRoute({ method: 'get', path: `/things/${i}`, auth: 'public', summary: 'A thing', responses: { 200: { description: 'ok', schema: named } }, handler: noop }),
    );
    const built = buildOpenApi(both, { title: 'x', version: '0' }) as { components?: { schemas?: Record<string, unknown> } };
    expect(built.components?.schemas?.Thing).toMatchObject({ type: 'object' });
    expect(JSON.stringify(built).match(/#\/components\/schemas\/Thing/g)).toHaveLength(2);
  });

  it('documents 405 with the error schema given, and [] as the security of public routes', () => {
    const error = z.object({ message: z.string() }).meta({ id: 'Error' });
    const built = buildOpenApi([routes[0]], { title: 'x', version: '0', errorSchema: error });
    const get = (built.paths as Record<string, Record<string, Operation & { security: unknown }>>)['/items'].get;
    expect(get.responses['405'].content?.['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(get.security).toEqual([]);
  });

  it('defaults to JSON responses and leaves out components when no schemes are given', () => {
    const plain = buildOpenApi([routes[0]], { title: 'x', version: '0' });
    expect(plain.components).toBeUndefined();
    const ok = (plain.paths as Record<string, Record<string, Operation>>)['/items'].get.responses['200'];
    expect(Object.keys(ok.content ?? {})).toEqual(['application/json']);
    expect(JSON.parse(JSON.stringify(plain))).toEqual(plain);
  });
});
