import { routeDefiner, type AuthScheme } from '@lib/routing';
import { parseTrustedProxies } from '@lib/services';
import request from 'supertest';
import { buildServiceApp } from './build-app';
import { addItem, getItem, testAppOptions } from './test-app.fixture';
import { trustProxies } from './trust-proxy';

/** Every write the route table can hold, behind an auth scheme that counts who reached it. */
function appWithWrites() {
  const reached: string[] = [];
  const counting: AuthScheme = {
    before: [
      (req, _res, next) => {
        reached.push(`${req.method} ${req.path}`);
        next();
      },
    ],
    security: ['counting'],
  };
  const defineRoute = routeDefiner<{ counting: { user: undefined } }>();
  const write = (method: 'post' | 'put' | 'patch' | 'delete') =>
    defineRoute({
      method,
      path: '/things',
      auth: 'counting',
      summary: `${method} a thing`,
      responses: { 204: { description: 'Done' } },
      handler: () => ({ status: 204 }),
    });
  const app = buildServiceApp(testAppOptions({ routes: [getItem, addItem, write('post'), write('put'), write('patch'), write('delete')], auth: { counting } }));
  return { app, reached };
}

const WRITES = ['post', 'put', 'patch', 'delete'] as const;

describe('cross-site writes', () => {
  it.each(['cross-site', 'same-site', 'Cross-Site'])('Sec-Fetch-Site: %s on every write: 403 cross_site_request before the auth scheme runs', async (site) => {
    const { app, reached } = appWithWrites();
    for (const method of WRITES) {
      const res = await request(app)[method]('/things').set('Sec-Fetch-Site', site);
      expect([method, res.status, res.body]).toEqual([method, 403, { error: { code: 'cross_site_request' } }]);
    }
    expect(reached).toEqual([]);
  });

  it.each([
    ['another site', 'https://evil.example'],
    ['another port of the host', 'http://127.0.0.1:1'],
    ['an opaque origin', 'null'],
    ['garbage', 'not an origin'],
  ])('Origin of %s: 403 before the auth scheme, on every write', async (_what, origin) => {
    const { app, reached } = appWithWrites();
    for (const method of WRITES) {
      const res = await request(app)[method]('/things').set('Host', 'api.example.com').set('Origin', origin);
      expect([method, res.status, res.body]).toEqual([method, 403, { error: { code: 'cross_site_request' } }]);
    }
    expect(reached).toEqual([]);
  });

  it('a body route refuses before reading the body (nothing parsed, nothing handled)', async () => {
    const { app } = appWithWrites();
    const res = await request(app).post('/items').set('Sec-Fetch-Site', 'cross-site').type('form').send('name=x');
    expect([res.status, res.body]).toEqual([403, { error: { code: 'cross_site_request' } }]);
  });

  it.each([
    ['no browser headers (curl, the official clients)', {}],
    ['Sec-Fetch-Site: same-origin', { 'Sec-Fetch-Site': 'same-origin' }],
    ['Sec-Fetch-Site: none (typed by the user)', { 'Sec-Fetch-Site': 'none' }],
    ['its own origin', { Origin: 'http://api.example.com:8080', 'Sec-Fetch-Site': 'same-origin' }],
    ['its own origin in other letter case', { Origin: 'http://API.example.com:8080' }],
  ])('passes with %s', async (_what, headers) => {
    const { app, reached } = appWithWrites();
    for (const method of WRITES) {
      const res = await request(app)[method]('/things').set('Host', 'api.example.com:8080').set(headers);
      expect([method, res.status]).toEqual([method, 204]);
    }
    expect(reached).toHaveLength(WRITES.length);
  });

  it('takes the https origin behind a TLS-terminating proxy as its own (host and port compared, default ports left out)', async () => {
    const { app } = appWithWrites();
    for (const host of ['crm.example.com', 'crm.example.com:443']) {
      expect((await request(app).post('/things').set('Host', host).set('Origin', 'https://crm.example.com')).status).toBe(204);
    }
    expect((await request(app).post('/things').set('Host', 'crm.example.com').set('Origin', 'https://crm.example.com:8443')).status).toBe(403);
  });

  it('believes X-Forwarded-Host only from a trusted proxy', async () => {
    const { app } = appWithWrites();
    const viaProxy = () => request(app).post('/things').set('Host', 'crm-api:3000').set('X-Forwarded-Host', 'crm.example.com').set('Origin', 'https://crm.example.com');
    expect((await viaProxy()).status).toBe(403);
    trustProxies(app, parseTrustedProxies('loopback'));
    expect((await viaProxy()).status).toBe(204);
  });

  it('leaves reads alone, whatever the headers', async () => {
    const { app } = appWithWrites();
    const res = await request(app).get('/items/7').set('Sec-Fetch-Site', 'cross-site').set('Origin', 'https://evil.example');
    expect([res.status, res.body]).toEqual([200, { id: 7 }]);
  });

  it('documents the 403 on every write of the OpenAPI document, and on no read', async () => {
    const { app } = appWithWrites();
    const document = (await request(app).get('/openapi.json')).body as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    const with403 = Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).filter(([, op]) => '403' in op.responses).map(([method]) => `${method} ${path}`));
    expect(with403.sort()).toEqual(['delete /things', 'patch /things', 'post /items', 'post /things', 'put /things']);
  });
});
