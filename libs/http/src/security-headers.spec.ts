import express, { type RequestHandler } from 'express';
import request from 'supertest';
import { securityHeaders } from './security-headers';

function appWith(headers: RequestHandler) {
  const app = express();
  app.disable('x-powered-by');
  app.use(headers);
  app.get('/json', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/text', (_req, res) => {
    res.status(404).type('text/plain').send('no');
  });
  return app;
}

/** What helmet's web-page set would add; an API that never answers HTML sends none of them. */
const PAGE_ONLY = [
  'content-security-policy',
  'strict-transport-security',
  'x-frame-options',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'x-xss-protection',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
];

describe('securityHeaders', () => {
  it.each(['/json', '/text'])('sets nosniff and no-referrer on %s, and none of the web-page headers', async (path) => {
    const res = await request(appWith(securityHeaders())).get(path);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    for (const name of PAGE_ONLY) expect({ [name]: res.headers[name] }).toEqual({ [name]: undefined });
  });

  it('sets the extra headers after its own (an extra one wins)', async () => {
    const res = await request(appWith(securityHeaders({ 'X-Api-Version': '2', 'Referrer-Policy': 'same-origin' }))).get('/json');
    expect(res.headers['x-api-version']).toBe('2');
    expect(res.headers['referrer-policy']).toBe('same-origin');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
