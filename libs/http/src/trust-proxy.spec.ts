import { defineRoute } from '@lib/routing';
import { parseTrustedProxies } from '@lib/services';
import { z } from '@lib/validation';
import request from 'supertest';
import { buildServiceApp } from './build-app';
import { testAppOptions } from './test-app.fixture';
import { trustProxies } from './trust-proxy';

describe('the client address of a service app (req.ip), supertest connecting from loopback', () => {
  const appTrusting = (setting?: string) => {
    const app = buildServiceApp(testAppOptions({
      routes: [
        defineRoute({
          method: 'get',
          path: '/ip',
          auth: 'public',
          summary: 'The client address',
          responses: { 200: { description: 'The address', schema: z.object({ ip: z.string() }) } },
          handler: ({ req }) => ({ status: 200, body: { ip: req.ip ?? '' } }),
        }),
      ],
      openapi: { title: 'Ip', version: '1.0.0' },
    }));
    if (setting !== undefined) trustProxies(app, parseTrustedProxies(setting));
    return app;
  };
  const ipWith = async (app: ReturnType<typeof appTrusting>, forwardedFor?: string) => {
    const req = request(app).get('/ip');
    if (forwardedFor !== undefined) req.set('X-Forwarded-For', forwardedFor);
    return (await req).body.ip as string;
  };
  const LOOPBACK = /^(::ffff:)?127\.0\.0\.1$|^::1$/;

  it('is the socket address whatever X-Forwarded-For says, as buildServiceApp makes the app (nobody trusted)', async () => {
    const app = appTrusting();
    expect(await ipWith(app)).toMatch(LOOPBACK);
    expect(await ipWith(app, '203.0.113.9')).toMatch(LOOPBACK);
    expect(await ipWith(app, '198.51.100.1, 203.0.113.9')).toMatch(LOOPBACK);
  });

  it('is the socket address when the peer is not among the trusted proxies (a LAN peer is not a proxy)', async () => {
    const app = appTrusting('10.0.0.0/8, 192.168.0.0/16');
    expect(await ipWith(app, '203.0.113.9')).toMatch(LOOPBACK);
  });

  it('is the address the trusted proxy (loopback here) put last in X-Forwarded-For, and nothing a client wrote before it', async () => {
    const app = appTrusting('loopback');
    expect(await ipWith(app, '203.0.113.9')).toBe('203.0.113.9');
    expect(await ipWith(app, '198.51.100.1, 203.0.113.9')).toBe('203.0.113.9');
    // a hop that is itself a trusted proxy is passed over: the client is the first untrusted one
    expect(await ipWith(app, '198.51.100.1, 127.0.0.5')).toBe('198.51.100.1');
    expect(await ipWith(app, '203.0.113.9, 10.0.0.5')).toBe('10.0.0.5');
  });

  it('with a hop count, is the entry that many hops out, whatever the addresses', async () => {
    const app = appTrusting('1');
    expect(await ipWith(app, '198.51.100.1, 127.0.0.5')).toBe('127.0.0.5');
    expect(await ipWith(app)).toMatch(LOOPBACK);
  });
});
