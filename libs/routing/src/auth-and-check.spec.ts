import { errorHandler, unauthorized, type ErrorDescription } from '@lib/errors';
import express, { type Request, type RequestHandler } from 'express';
import request from 'supertest';
import { z } from 'zod';
import { CHECK_RESPONSES_ENV, takeResponseViolations } from './response-check';
import { mountRoutes, resolveAuth, routeDefiner, type AuthScheme } from './route';

const defineRoute = routeDefiner<{ key: { user: string } }>();
const signIn: RequestHandler = (req, _res, next) => {
  if (req.headers['x-key'] !== 'k') return next(unauthorized());
  (req as Request & { caller?: string }).caller = 'ann';
  next();
};
const schemes: Record<string, AuthScheme> = { key: { before: [signIn], security: ['apiKey'], context: (req) => ({ user: (req as Request & { caller?: string }).caller }) } };

const n = z.object({ n: z.number() });
/** A route whose handler breaks its contract at run time (what a cast or an `any` lets through the types). */
const drifting = (reply: unknown) => () => reply as { status: 200; body: { n: number } };

const routes = [
  defineRoute({ method: 'get', path: '/me', auth: 'key', summary: 'Me', responses: { 200: { description: 'me', schema: z.object({ name: z.string() }) } }, handler: ({ user }) => ({ status: 200, body: { name: user } }) }),
  defineRoute({ method: 'get', path: '/open', auth: 'public', summary: 'Open', responses: { 200: { description: 'ok', schema: z.object({ user: z.null() }) } }, handler: ({ user }) => ({ status: 200, body: { user: user ?? null } }) }),
  defineRoute({ method: 'get', path: '/drift', auth: 'public', summary: 'Drifts', responses: { 200: { description: 'ok', schema: n } }, handler: drifting({ status: 200, body: { n: 'one' } }) }),
  defineRoute({ method: 'get', path: '/drift-text', auth: 'public', summary: 'Drifts in JSON text', responses: { 200: { description: 'ok', schema: n } }, handler: () => ({ status: 200, body: { n: 1 }, text: '{"n":"one"}' }) }),
  defineRoute({ method: 'get', path: '/text', auth: 'public', summary: 'JSON text', responses: { 200: { description: 'ok', schema: n } }, handler: () => ({ status: 200, body: { n: 1 }, text: '{"n":1}' }) }),
  defineRoute({ method: 'delete', path: '/gone', auth: 'public', summary: 'Answers a status it does not declare', responses: { 200: { description: 'ok', schema: n } }, handler: drifting({ status: 204 }) }),
  defineRoute({ method: 'delete', path: '/done', auth: 'public', summary: 'Answers the 204 it declares', responses: { 204: { description: 'done' } }, handler: () => ({ status: 204 }) }),
  defineRoute({ method: 'get', path: '/extra', auth: 'public', summary: 'Leaks a field its strict schema does not have', responses: { 200: { description: 'ok', schema: z.strictObject({ n: z.number() }) } }, handler: drifting({ status: 200, body: { n: 1, secret: 'x' } }) }),
  defineRoute({ method: 'get', path: '/headers', auth: 'public', summary: 'Sets a header', responses: { 201: { description: 'ok', schema: n } }, handler: () => ({ status: 201, body: { n: 2 }, headers: { Location: '/n/2' } }) }),
];

function appWith(check: boolean) {
  const before = process.env[CHECK_RESPONSES_ENV];
  process.env[CHECK_RESPONSES_ENV] = check ? '1' : '0';
  const app = express();
  const router = express.Router();
  mountRoutes(router, routes, { auth: schemes });
  app.use(router);
  app.use(errorHandler({ format: (e: ErrorDescription) => ({ code: e.code }) }));
  process.env[CHECK_RESPONSES_ENV] = before;
  return app;
}

describe('auth declared per route', () => {
  const app = appWith(false);

  it("runs the scheme's middleware first and hands the handler the user it signed in", async () => {
    await request(app).get('/me').expect(401);
    await request(app).get('/me').set('x-key', 'k').expect(200, { name: 'ann' });
    await request(app).get('/open').expect(200, { user: null });
  });

  it("gives each route its scheme's security ([] when public), and refuses a scheme the app does not define", () => {
    expect(resolveAuth(routes, schemes).map((r) => r.security)).toEqual([['apiKey'], [], [], [], [], [], [], [], []]);
    expect(() => resolveAuth(routes, {})).toThrow(/auth 'key' is not one of the app's schemes/);
  });
});

describe('a route group', () => {
  const row = defineRoute.group({ auth: 'key', tags: ['people'], responses: { 400: { description: 'bad' }, 401: { description: 'signed out' } } });

  it("gives each row the group's auth, tags and responses; a row's own tags and responses win", () => {
    const [plain, own] = [
      row({ method: 'get', path: '/p', summary: 'P', responses: { 200: { description: 'ok', schema: n } }, handler: () => ({ status: 200, body: { n: 1 } }) }),
      row.delete('/q', { summary: 'Q', tags: ['q'], responses: { 401: { description: 'no key' } }, handler: () => ({ status: 401 }) }),
    ];
    expect(plain).toMatchObject({ auth: 'key', tags: ['people'], responses: { 200: { description: 'ok' }, 400: { description: 'bad' }, 401: { description: 'signed out' } } });
    expect(own).toMatchObject({ method: 'delete', path: '/q', auth: 'key', tags: ['q'], responses: { 400: { description: 'bad' }, 401: { description: 'no key' } } });
    expect(resolveAuth([plain], schemes)[0]!.security).toEqual(['apiKey']);
  });
});

describe('response check', () => {
  it('answers 500 and records the route and the field when a 2xx body does not match its schema', async () => {
    takeResponseViolations();
    await request(appWith(true)).get('/drift').expect(500);
    expect(takeResponseViolations()).toEqual([expect.stringMatching(/^GET \/drift answered 200 a body its schema refuses: n: /)]);
    await request(appWith(true)).get('/open').expect(200);
    expect(takeResponseViolations()).toEqual([]);
  });

  it('refuses a field that a strict output schema does not declare (a leak)', async () => {
    takeResponseViolations();
    await request(appWith(true)).get('/extra').expect(500);
    expect(takeResponseViolations()).toEqual([expect.stringMatching(/^GET \/extra answered 200 a body its schema refuses: \(body\): Unrecognized key: "secret"/)]);
  });

  it('checks that text a route wrote itself is its body as written', async () => {
    takeResponseViolations();
    await request(appWith(true)).get('/drift-text').expect(500);
    expect(takeResponseViolations()).toEqual(['GET /drift-text answered 200 text that is not its body as written']);
    await request(appWith(true)).get('/text').expect(200, { n: 1 });
    expect(takeResponseViolations()).toEqual([]);
  });

  it('sends the headers a reply names', async () => {
    const res = await request(appWith(true)).get('/headers').expect(201, { n: 2 });
    expect(res.headers.location).toBe('/n/2');
    expect(takeResponseViolations()).toEqual([]);
  });

  it('records a status the route does not declare, before anything is sent', async () => {
    takeResponseViolations();
    await request(appWith(true)).delete('/gone').expect(500);
    expect(takeResponseViolations()).toEqual(['DELETE /gone answered 204, a status it does not declare']);
    await request(appWith(true)).delete('/done').expect(204);
    expect(takeResponseViolations()).toEqual([]);
  });

  it('checks nothing when not enabled', async () => {
    await request(appWith(false)).get('/drift').expect(200, { n: 'one' });
    expect(takeResponseViolations()).toEqual([]);
  });

  it('checks nothing with NODE_ENV=production, even when CHECK_RESPONSES is set', async () => {
    const env = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await request(appWith(true)).get('/drift').expect(200, { n: 'one' });
    } finally {
      process.env.NODE_ENV = env;
    }
    expect(takeResponseViolations()).toEqual([]);
  });
});
