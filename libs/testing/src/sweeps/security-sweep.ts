import type { AnyRoute } from '@lib/routing';
import { bodyLimitOf, routeTable } from '@lib/http';
import { sendRaw, type RawRequest } from './raw-client';
import { encode, bodyTypes, fillPath, mediaType } from './route-shape';
import { appendQuery, seededSnapshot, sendAndCheck, useLoopbackServer, withCredentials, type SweepTarget } from './sweep-target';

export interface SecuritySweepTarget extends SweepTarget {
  /** Routes meant to answer without credentials (health, OpenAPI, public reads). */
  isPublic(route: AnyRoute): boolean;
  /** Wrong credentials to try on every protected route, as request headers. */
  wrongCredentials: Array<Record<string, string>>;
  /** Wrong credentials sent as query parameters (a wrong or expired `?access_token=`), for APIs that take them there. */
  wrongCredentialQueries?: Array<Record<string, string>>;
}

const urlOf = (target: SweepTarget, route: AnyRoute) => fillPath(route, (name) => encode(String(target.sample?.(name) ?? 1)));

/** The security headers of an API's answers (libs/http/src/security-headers.ts says why these). */
const SECURITY_HEADERS: Record<string, RegExp> = {
  'x-content-type-options': /^nosniff$/,
  'referrer-policy': /^no-referrer$/,
};

/**
 * Security checks generated from the app's route table: every protected route refuses missing and
 * wrong credentials with 401 (and writes nothing), every state-changing route refuses a browser's
 * request from another site or origin with 403 even with valid credentials (and writes nothing),
 * every route that takes a body answers 413 to a
 * body over the limit (and writes nothing), and every answer carries the security headers and is not
 * HTML (which is why no CSP or frame-ancestors is sent).
 */
export function securitySweep(target: SecuritySweepTarget): void {
  const server = useLoopbackServer(target);

  it('every protected route of the table answers 401 without credentials and with wrong ones, writing nothing', async () => {
    const before = await seededSnapshot(target);
    const protectedRoutes = routeTable(target.app).filter((route) => !target.isPublic(route));
    expect(protectedRoutes.length).toBeGreaterThan(0);
    for (const route of routeTable(target.app)) {
      // the OpenAPI document must say what the app enforces
      expect({ route: `${route.method} ${route.path}`, documented: Boolean(route.security?.length) }).toEqual({ route: `${route.method} ${route.path}`, documented: !target.isPublic(route) });
    }
    for (const route of protectedRoutes) {
      const attempts = [{}, ...target.wrongCredentials].map((headers) => ({ headers, query: {} })).concat((target.wrongCredentialQueries ?? []).map((query) => ({ headers: {}, query })));
      for (const { headers, query } of attempts) {
        const body: Record<string, string> = bodyTypes(route).length ? { 'Content-Type': 'application/json' } : {};
        const req: RawRequest = { method: route.method, url: appendQuery(urlOf(target, route), query), headers: { ...headers, ...body, Accept: 'application/json' }, body: bodyTypes(route).length ? '{}' : undefined };
        const { res } = await sendAndCheck(target, server.port, req, before);
        const label = `${route.method} ${route.path} ${JSON.stringify({ headers, query })}`;
        const challenge = res.headers['www-authenticate'] !== undefined;
        expect({ label, status: res.status, challenge, json: /json/.test(String(res.headers['content-type'])) }).toEqual({ label, status: 401, challenge: true, json: true });
      }
    }
  }, 30_000);

  it('every state-changing route refuses a browser request from another site or origin with 403 cross_site_request, valid credentials and all, writing nothing', async () => {
    const before = await seededSnapshot(target);
    const writes = routeTable(target.app).filter((route) => route.method !== 'get');
    expect(writes.length).toBeGreaterThan(0);
    const foreign: Array<Record<string, string>> = [
      { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' },
      { 'Sec-Fetch-Site': 'same-site' },
      { Origin: 'https://evil.example' },
      { Origin: 'null' },
    ];
    for (const route of writes) {
      for (const browser of foreign) {
        const type = bodyTypes(route)[0];
        const body = type === undefined ? undefined : type === 'json' ? '{}' : '';
        const headers = { ...browser, Accept: 'application/json', ...(type ? { 'Content-Type': mediaType(type) } : {}) };
        const req = withCredentials(target, route, { method: route.method, url: urlOf(target, route), headers, body });
        const { res } = await sendAndCheck(target, server.port, req, before);
        const label = `${route.method} ${route.path} ${JSON.stringify(browser)}`;
        expect({ label, status: res.status, code: /"cross_site_request"/.test(res.text), json: /json/.test(String(res.headers['content-type'])) }).toEqual({ label, status: 403, code: true, json: true });
      }
    }
  }, 30_000);

  it('a body over the limit is 413 on every write route (with or without a body schema, each accepted content type), writing nothing', async () => {
    const before = await seededSnapshot(target);
    let checked = 0;
    for (const route of routeTable(target.app)) {
      if (route.method === 'get') continue; // health and reads are mounted without the discard (GET bodies are not read)
      const types = bodyTypes(route).length ? bodyTypes(route) : (['none'] as const);
      for (const type of types) {
        // over the app's limit, which a route without a smaller one of its own (or without a body) has
        const filler = 'A'.repeat(bodyLimitOf(target.app) + 1024);
        const body = type === 'json' ? JSON.stringify({ filler }) : `filler=${filler}`;
        const contentType = type === 'none' ? 'application/octet-stream' : mediaType(type);
        const req = withCredentials(target, route, { method: route.method, url: urlOf(target, route), headers: { 'Content-Type': contentType }, body });
        const { res } = await sendAndCheck(target, server.port, req, before);
        expect({ route: `${route.method} ${route.path}`, type, status: res.status }).toEqual({ route: `${route.method} ${route.path}`, type, status: 413 });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  }, 120_000); // a 6 MB body and a database snapshot per route and type: over 30 s on a loaded 2-core machine

  it('every route answers with the security headers, without X-Powered-By and never as HTML, errors included', async () => {
    for (const route of routeTable(target.app)) {
      const unauthenticated: RawRequest = { method: route.method, url: urlOf(target, route), headers: {} };
      for (const req of [withCredentials(target, route, unauthenticated), unauthenticated]) {
        const res = await sendRaw(server.port, req);
        for (const [name, pattern] of Object.entries(SECURITY_HEADERS)) {
          expect({ route: `${route.method} ${route.path}`, [name]: res.headers[name] }).toEqual({ route: `${route.method} ${route.path}`, [name]: expect.stringMatching(pattern) });
        }
        expect(res.headers['x-powered-by']).toBeUndefined();
        expect({ route: `${route.method} ${route.path}`, html: /html/i.test(String(res.headers['content-type'] ?? '')) }).toEqual({ route: `${route.method} ${route.path}`, html: false });
      }
    }
  });
}
