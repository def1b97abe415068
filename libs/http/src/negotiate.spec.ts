import { errorHandler } from '@lib/errors';
import { defineRoute, mountRoutes, xmlList, xmlRoot, type AnyRoute } from '@lib/routing';
import { z } from '@lib/validation';
import express from 'express';
import request from 'supertest';
import { jsonOrXmlFormat, negotiate, negotiatedRoutes, type MediaKind } from './negotiate';

const contacts = [
  { id: 1, name: 'Ada', tags: ['vip'] },
  { id: 2, name: 'Bob', tags: [] },
];
const contact = z.object({ id: z.number(), name: z.string().optional(), tags: z.array(z.string()).optional() });
const list = { description: 'contacts', schema: xmlList(contact, { root: 'contacts', item: 'contact' }) };
const one = { description: 'a contact', schema: xmlRoot(contact, 'contact') };
const notAcceptable = { description: 'Accept names neither JSON nor XML' };

const routes: AnyRoute[] = negotiatedRoutes(
  [
    defineRoute({ method: 'get', path: '/json-first', auth: 'public', summary: 'list', responses: { 200: list }, handler: () => ({ status: 200, body: contacts }) }),
    defineRoute({ method: 'get', path: '/xml-first', auth: 'public', summary: 'list', defaultMedia: 'xml', responses: { 200: list }, handler: () => ({ status: 200, body: contacts }) }),
    defineRoute({
      method: 'delete',
      path: '/gone',
      auth: 'public',
      summary: 'delete',
      responses: { 200: { description: 'deleted', schema: xmlRoot(z.object({ deleted: z.array(z.number()) }), 'result') } },
      handler: () => ({ status: 200, body: { deleted: [1] } }),
    }),
    defineRoute({ method: 'get', path: '/created', auth: 'public', summary: 'created', responses: { 201: one }, handler: () => ({ status: 201, body: { id: 3 } }) }),
    defineRoute({ method: 'get', path: '/varied', auth: 'public', summary: 'varied', responses: { 200: one }, handler: () => ({ status: 200, body: { id: 4 }, headers: { Vary: 'Origin' } }) }),
    defineRoute({ method: 'get', path: '/unnamed', auth: 'public', summary: 'no XML name', responses: { 200: { description: 'x', schema: contact } }, handler: () => ({ status: 200, body: { id: 5 } }) }),
    defineRoute({
      method: 'get',
      path: '/either/:kind',
      auth: 'public',
      summary: 'a list of one of two kinds, each with its own XML names',
      request: { params: z.object({ kind: z.string() }) },
      responses: { 200: { description: 'contacts or deals', schema: z.union([list.schema, xmlList(z.strictObject({ deal: z.string() }), { root: 'collection', item: 'opportunity' })]) } },
      handler: ({ params }) => ({ status: 200, body: params.kind === 'deals' ? [{ deal: 'Big' }] : contacts }),
    }),
  ],
  notAcceptable,
);

const app = express();
const router = express.Router();
mountRoutes(router, routes, { format: jsonOrXmlFormat });
app.use(router);
app.get('/kind/:fallback', (req, res) => {
  res.json({ kind: negotiate(req, req.params.fallback as MediaKind) });
});
app.use(errorHandler({ format: (e) => ({ code: e.code, message: e.message }) }));

const XML_LIST = '<?xml version="1.0" encoding="UTF-8"?><contacts><contact><id>1</id><name>Ada</name><tags>vip</tags></contact><contact><id>2</id><name>Bob</name></contact></contacts>';

describe('disregardAccept', () => {
  it('answers JSON instead of 406 for an Accept naming neither, and still honours XML', async () => {
    const plain = await request(app).delete('/gone').set('Accept', 'text/plain');
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual({ deleted: [1] });
    const xml = await request(app).delete('/gone').set('Accept', 'application/xml');
    expect(xml.text).toContain('<result><deleted>1</deleted></result>');
    const refused = await request(app).get('/created').set('Accept', 'text/plain');
    expect(refused.status).toBe(406);
  });
});

describe('negotiate', () => {
  it.each<[string | undefined, MediaKind, MediaKind]>([
    ['application/json', 'json', 'json'],
    ['application/json', 'xml', 'json'],
    ['application/xml', 'json', 'xml'],
    ['application/xml', 'xml', 'xml'],
    [undefined, 'json', 'json'],
    [undefined, 'xml', 'xml'],
    ['*/*', 'json', 'json'],
    ['*/*', 'xml', 'xml'],
    ['application/*', 'xml', 'xml'],
    ['application/xml;q=0.5, application/json', 'xml', 'json'],
    ['text/html, application/xml;q=0.9', 'json', 'xml'],
  ])('Accept %j with fallback %s picks %s', async (accept, fallback, expected) => {
    const req = request(app).get(`/kind/${fallback}`);
    if (accept !== undefined) req.set('Accept', accept);
    else req.unset('Accept');
    const res = await req;
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ kind: expected });
  });

  it('answers each Accept header by its own content after many distinct ones (the remembered answers are bounded)', async () => {
    for (let i = 0; i < 70; i++) {
      const res = await request(app).get('/kind/json').set('Accept', `application/xml, text/x-made-up-${i};q=0.5`);
      expect(res.body).toEqual({ kind: 'xml' });
    }
    const refused = await request(app).get('/kind/json').set('Accept', 'text/x-made-up-1');
    expect(refused.status).toBe(406);
    const json = await request(app).get('/kind/xml').set('Accept', 'application/json, text/x-made-up-1;q=0.5');
    expect(json.body).toEqual({ kind: 'json' });
    const long = `${'text/x-long;q=0.1, '.repeat(20)}application/xml`;
    for (let i = 0; i < 2; i++) expect((await request(app).get('/kind/json').set('Accept', long)).body).toEqual({ kind: 'xml' });
  });

  it('answers 406 when the Accept header names neither JSON nor XML', async () => {
    for (const accept of ['text/html', 'text/csv', 'image/png']) {
      const res = await request(app).get('/kind/json').set('Accept', accept);
      expect(res.status).toBe(406);
      expect(JSON.parse(res.text)).toEqual({ code: 'not_acceptable', message: 'This endpoint answers application/json or application/xml' });
    }
  });
});

describe('jsonOrXmlFormat', () => {
  it('sends JSON when asked', async () => {
    const res = await request(app).get('/xml-first').set('Accept', 'application/json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(contacts);
  });

  it('sends XML when asked, with the root and item names', async () => {
    const res = await request(app).get('/json-first').set('Accept', 'application/xml');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    expect(res.text).toBe(XML_LIST);
  });

  it('uses the fallback when Accept is absent', async () => {
    const xml = await request(app).get('/xml-first').unset('Accept');
    expect(xml.headers['content-type']).toMatch(/^application\/xml/);
    expect(xml.text).toBe(XML_LIST);
    const json = await request(app).get('/json-first').unset('Accept');
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(json.body).toEqual(contacts);
  });

  it('writes a union of named lists in the names of the option the body is', async () => {
    expect((await request(app).get('/either/contacts').set('Accept', 'application/xml')).text).toBe(XML_LIST);
    const deals = await request(app).get('/either/deals').set('Accept', 'application/xml');
    expect(deals.status).toBe(200);
    expect(deals.text).toBe('<?xml version="1.0" encoding="UTF-8"?><collection><opportunity><deal>Big</deal></opportunity></collection>');
  });

  it('keeps the status and varies on Accept', async () => {
    const res = await request(app).get('/created').set('Accept', 'application/xml');
    expect(res.status).toBe(201);
    expect(res.headers.vary).toMatch(/Accept/);
    expect(res.text).toContain('<contact><id>3</id></contact>');
  });

  it('adds Accept to a Vary header already set', async () => {
    const res = await request(app).get('/varied').set('Accept', 'application/json');
    expect(res.status).toBe(200);
    expect(res.headers.vary).toBe('Origin, Accept');
    expect(res.body).toEqual({ id: 4 });
  });

  it('answers 406 for an unacceptable Accept, before the handler runs', async () => {
    const res = await request(app).get('/json-first').set('Accept', 'text/plain');
    expect(res.status).toBe(406);
  });

  it('documents the 406 on routes with a body, not on deletes', () => {
    expect(Object.keys(routes.find((r) => r.path === '/created')!.responses)).toContain('406');
    expect(Object.keys(routes.find((r) => r.path === '/gone')!.responses)).not.toContain('406');
  });

  it('refuses (500) to answer XML for a schema that names no element', async () => {
    const res = await request(app).get('/unnamed').set('Accept', 'application/xml');
    expect(res.status).toBe(500);
    expect((await request(app).get('/unnamed').set('Accept', 'application/json')).body).toEqual({ id: 5 });
  });
});
