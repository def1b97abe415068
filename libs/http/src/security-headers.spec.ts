import express, { type RequestHandler } from 'express';
import helmet from 'helmet';
import request from 'supertest';
import { securityHeaders } from './security-headers';

/** An app with express's own X-Powered-By left on (helmet must remove it) and two kinds of answer. */
function appWith(headers: RequestHandler) {
  const app = express();
  app.use(headers);
  app.get('/json', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/text', (_req, res) => {
    res.status(404).type('text/plain').send('no');
  });
  return app;
}

const withoutDate = (headers: Record<string, string>) => {
  const { date: _date, ...rest } = headers;
  return rest;
};

describe('securityHeaders', () => {
  it.each(['/json', '/text'])('sets exactly the headers helmet() sets on %s, with the same values, in the same order', async (path) => {
    const byHelmet = await request(appWith(helmet())).get(path);
    const ours = await request(appWith(securityHeaders())).get(path);
    expect(ours.status).toBe(byHelmet.status);
    expect(byHelmet.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(byHelmet.headers['x-powered-by']).toBeUndefined();
    expect(Object.entries(withoutDate(ours.headers))).toEqual(Object.entries(withoutDate(byHelmet.headers)));
  });

  it('follows helmet options', async () => {
    const options = { frameguard: { action: 'deny' as const }, strictTransportSecurity: false };
    const byHelmet = await request(appWith(helmet(options))).get('/json');
    const ours = await request(appWith(securityHeaders(options))).get('/json');
    expect(ours.headers['x-frame-options']).toBe('DENY');
    expect(ours.headers['strict-transport-security']).toBeUndefined();
    expect(withoutDate(ours.headers)).toEqual(withoutDate(byHelmet.headers));
  });

  it('sets the extra headers after helmet’s', async () => {
    const res = await request(appWith(securityHeaders({}, { 'X-Api-Version': '2', 'X-Frame-Options': 'DENY' }))).get('/json');
    expect(res.headers['x-api-version']).toBe('2');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses helmet options that depend on the request (they cannot be computed once)', () => {
    expect(() => securityHeaders({ contentSecurityPolicy: { directives: { scriptSrc: ["'self'", () => "'nonce-x'"] } } })).toThrow(/per-request/);
  });
});
