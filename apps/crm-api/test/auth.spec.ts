import request from 'supertest';
import { person, setupCrmApp, type TestUser } from './setup-app';
import { storedState } from './expectations';

const ctx = setupCrmApp();
const stored = () => storedState(ctx.connection);

type Method = 'get' | 'post' | 'put' | 'delete' | 'patch';
interface Operation {
  method: Method;
  /** The OpenAPI path, e.g. /dev/api/contacts/{id}. */
  path: string;
  /** The path with its parameters filled in. */
  url: string;
  security?: unknown;
}

const basic = (email: string, key: string) => `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;

/** Path parameters: ids become 1, emails a@b.test. */
/** The id the filled paths name: a contact of ann's where a test made one. */
let sampleId = 1;
const fill = (path: string) => path.replace(/\{([^}]+)\}/g, (_m, name: string) => (/email/i.test(name) ? 'a@b.test' : String(sampleId)));

async function openapi() {
  const res = await request(ctx.app).get('/openapi.json');
  expect(res.status).toBe(200);
  return res.body as {
    paths: Record<string, Record<string, { security?: unknown }>>;
    components?: { securitySchemes?: Record<string, unknown> };
  };
}

/** Every /dev/api operation of the route table, as /openapi.json describes it. */
async function apiOperations(): Promise<Operation[]> {
  const doc = await openapi();
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith('/dev/api')) continue;
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'delete', 'patch'].includes(method)) continue;
      ops.push({ method: method as Method, path, url: fill(path), security: op.security });
    }
  }
  return ops;
}

/** `METHOD path` of every route express actually serves (405 catch-alls excluded), in OpenAPI spelling. */
function mountedRoutes(): string[] {
  const found: string[] = [];
  type Layer = { route?: { path: string; methods: Record<string, boolean> }; handle?: { stack?: Layer[] } };
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const [method, on] of Object.entries(layer.route.methods)) {
          if (on && method !== '_all') found.push(`${method} ${layer.route.path.replace(/:([A-Za-z_]\w*)/g, '{$1}')}`);
        }
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack);
      }
    }
  };
  walk((ctx.app as unknown as { router: { stack: Layer[] } }).router.stack);
  return found;
}

function send(op: Operation, authorization?: string, accept = 'application/json') {
  let test = request(ctx.app)[op.method](op.url).set('Accept', accept);
  if (authorization !== undefined) test = test.set('Authorization', authorization);
  return test;
}

function expect401(res: request.Response, label: string) {
  expect({ label, status: res.status }).toEqual({ label, status: 401 });
  expect(res.headers['www-authenticate']).toMatch(/^Basic realm="[^"]+"/);
  expect(res.type).toBe('application/json');
  expect(res.body).toEqual({ error: { status: 401, code: 'unauthorized', message: expect.any(String) } });
  expect(res.body.error.message.length).toBeGreaterThan(0);
}

let ann: TestUser;
beforeEach(async () => {
  ann = await ctx.user('acme', 'ann@acme.test');
});

describe('the route table', () => {
  it('/openapi.json describes every mounted /dev/api route, each with security basic', async () => {
    const doc = await openapi();
    expect(doc.components?.securitySchemes?.basic).toMatchObject({ type: 'http', scheme: 'basic' });
    const ops = await apiOperations();
    expect(ops.length).toBeGreaterThanOrEqual(22);
    for (const op of ops) expect({ op: `${op.method} ${op.path}`, security: op.security }).toEqual({ op: `${op.method} ${op.path}`, security: [{ basic: [] }] });

    const described = ops.map((op) => `${op.method} ${op.path}`).sort();
    const mounted = mountedRoutes()
      .filter((r) => r.split(' ')[1].startsWith('/dev/api'))
      .sort();
    expect(described).toEqual(mounted);
    // the routes the issue names are all there
    for (const route of [
      'get /dev/api/contacts',
      'get /dev/api/contacts/{id}',
      'post /dev/api/contacts',
      'put /dev/api/contacts',
      'delete /dev/api/contacts/{id}',
      'post /dev/api/contacts/search/email',
      'post /dev/api/contacts/email/tags/add',
      'post /dev/api/contacts/email/tags/delete',
      'post /dev/api/contacts/add-score',
      'post /dev/api/contacts/add/property',
      'post /dev/api/contacts/change-owner',
      'get /dev/api/contacts/search/email/{email}',
      'put /dev/api/contacts/edit-properties',
      'put /dev/api/contacts/edit/tags',
      'put /dev/api/contacts/delete/tags',
      'put /dev/api/contacts/edit/lead-score',
      'put /dev/api/contacts/edit/add-star',
      'get /dev/api/contacts/list/count',
      'get /dev/api/search',
      'post /dev/api/contacts/companies/list',
      'get /dev/api/contacts/related/{companyId}',
      'get /dev/api/users',
      'get /dev/api/users/current-user',
    ]) {
      expect(described).toContain(route);
    }
  });

  it('/healthz, /readyz and /openapi.json need no credentials', async () => {
    expect((await request(ctx.app).get('/healthz')).body).toEqual({ status: 'ok' });
    const ready = await request(ctx.app).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
    expect((await request(ctx.app).get('/openapi.json')).status).toBe(200);
  });
});

describe('401 on every /dev/api route', () => {
  it('for missing, wrong, unknown, revoked, disabled and malformed credentials; nothing is changed', async () => {
    const rev = await ctx.user('acme', 'rev@acme.test');
    await ctx.accounts().revokeKey(rev.email);
    const dis = await ctx.user('acme', 'dis@acme.test');
    await ctx.accounts().setDisabled(dis.email, true);
    const bea = await ctx.user('acme', 'bea@acme.test');
    // a contact with email a@b.test, which the sweep's filled paths name, with its id
    const mine = await ctx.as(ann).post('/dev/api/contacts').send(person('Al', 'a@b.test', { tags: ['t'], lead_score: 5 }));
    expect(mine.status).toBe(200);
    sampleId = mine.body.id;
    const before = await stored();

    const cases: [string, string | undefined][] = [
      ['no credentials', undefined],
      ['wrong key', basic(ann.email, `${ann.apiKey}x`)],
      ['empty key', basic(ann.email, '')],
      ['unknown email', basic('nobody@acme.test', ann.apiKey)],
      ['email in other letter case', basic('ANN@acme.test', ann.apiKey)],
      ["another user's key", basic(bea.email, ann.apiKey)],
      ['revoked key', rev.auth],
      ['disabled user', dis.auth],
      ['Basic !!!', 'Basic !!!'],
      ['Basic without credentials', 'Basic'],
      ['Basic without a colon', `Basic ${Buffer.from('ann@acme.test').toString('base64')}`],
      ['Bearer x', 'Bearer x'],
      ['Bearer with a valid key', `Bearer ${ann.apiKey}`],
    ];
    const ops = await apiOperations();
    const responses = await Promise.all(ops.flatMap((op) => cases.map(async ([label, auth]) => ({ label: `${op.method} ${op.url} (${label})`, res: await send(op, auth) }))));
    expect(responses).toHaveLength(ops.length * cases.length);
    for (const { label, res } of responses) expect401(res, label);

    // a malformed body does not get past authentication either
    for (const op of ops.filter((o) => o.method === 'post' || o.method === 'put')) {
      expect401(await send(op).set('Content-Type', 'application/json').send('{not json'), `${op.method} ${op.url} (bad body)`);
    }
    expect(await stored()).toEqual(before);
  }, 60_000);

  it('the message tells missing credentials from wrong ones', async () => {
    const res = await request(ctx.app).get('/dev/api/contacts/list/count');
    expect401(res, 'none');
    expect(res.body.error.message).toMatch(/required/i);
    const wrong = await request(ctx.app).get('/dev/api/contacts/list/count').set('Authorization', basic(ann.email, 'nope'));
    expect401(wrong, 'wrong');
    expect(wrong.body.error.message).toMatch(/wrong/i);
  });

  it('the password is everything after the first colon: a key with more text after a colon is wrong', async () => {
    const res = await request(ctx.app).get('/dev/api/contacts/list/count').set('Authorization', basic(ann.email, `${ann.apiKey}:x`));
    expect401(res, 'key:x');
    expect(res.body.error.message).toMatch(/wrong/i);
  });

  it('answers the 401 in XML when XML is asked for', async () => {
    const res = await request(ctx.app).get('/dev/api/contacts').set('Accept', 'application/xml');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic /);
    expect(res.type).toBe('application/xml');
    expect(res.text).toMatch(/<error><status>401<\/status><code>unauthorized<\/code><message>[^<]+<\/message><\/error>/);
  });

  it('valid credentials pass on every route (none answers 401)', async () => {
    await ctx.as(ann).post('/dev/api/contacts').send(person('Al', 'a@b.test'));
    const ops = await apiOperations();
    for (const op of ops) {
      const res = await send(op, ann.auth);
      expect({ op: `${op.method} ${op.url}`, status: res.status }).not.toEqual({ op: `${op.method} ${op.url}`, status: 401 });
      expect(res.status).toBeLessThan(500);
    }
  });
});

describe('keys', () => {
  it('an issued key works at once and the old key stops working', async () => {
    const oldAuth = ann.auth;
    expect((await request(ctx.app).get('/dev/api/users/current-user').set('Authorization', oldAuth)).status).toBe(200);
    const newKey = await ctx.accounts().issueKey(ann.email);
    expect(newKey).not.toBe(ann.apiKey);
    const fresh = await request(ctx.app).get('/dev/api/users/current-user').set('Authorization', basic(ann.email, newKey));
    expect(fresh.status).toBe(200);
    expect(fresh.body.email).toBe(ann.email);
    expect401(await request(ctx.app).get('/dev/api/users/current-user').set('Authorization', oldAuth), 'old key');
  });

  it('a revoked key stops working; a disabled user is refused until enabled', async () => {
    await ctx.accounts().setDisabled(ann.email, true);
    expect401(await request(ctx.app).get('/dev/api/users').set('Authorization', ann.auth), 'disabled');
    await ctx.accounts().setDisabled(ann.email, false);
    expect((await request(ctx.app).get('/dev/api/users').set('Authorization', ann.auth)).status).toBe(200);
    await ctx.accounts().revokeKey(ann.email);
    expect401(await request(ctx.app).get('/dev/api/users').set('Authorization', ann.auth), 'revoked');
  });

  it('API keys are stored hashed, never in clear', async () => {
    const raw = await ctx.connection.collection('domain_users').findOne({ email: ann.email });
    expect(raw).not.toBeNull();
    expect(JSON.stringify(raw)).not.toContain(ann.apiKey);
    expect(raw!.api_key_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
