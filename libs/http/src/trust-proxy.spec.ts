import { defineRoute } from '@lib/routing';
import { z } from '@lib/validation';
import request from 'supertest';
import { buildServiceApp } from './build-app';
import { testAppOptions } from './test-app.fixture';
import { trustOneProxyHop } from './trust-proxy';

describe('trustOneProxyHop', () => {
  it.each([
    ['127.0.0.1', 0, true],
    ['::1', 0, true],
    ['::ffff:127.0.0.1', 0, true],
    ['10.244.1.7', 0, true],
    ['172.20.0.3', 0, true],
    ['192.168.49.2', 0, true],
    ['fd00::12', 0, true],
    ['8.8.8.8', 0, false],
    ['172.32.0.1', 0, false],
    ['2001:db8::1', 0, false],
    ['10.0.0.2', 1, false],
    ['127.0.0.1', 1, false],
  ] as const)('%s at hop %d: %s', (address, hop, trusted) => {
    expect(trustOneProxyHop(address, hop)).toBe(trusted);
  });
});

describe('the client address of a service app (req.ip)', () => {
  const app = buildServiceApp(testAppOptions({
    routes: [
      defineRoute({
        method: 'get',
        path: '/ip',
        auth: 'public',
        summary: 'The client address',
        responses: { 200: { description: 'The address', schema: z.object({ ip: z.string() }) } },
        handler: ({ req }, res) => res.json({ ip: req.ip }),
      }),
    ],
    openapi: { title: 'Ip', version: '1.0.0' },
  }));
  const ipWith = async (forwardedFor?: string) => {
    const req = request(app).get('/ip');
    if (forwardedFor !== undefined) req.set('X-Forwarded-For', forwardedFor);
    return (await req).body.ip as string;
  };

  it('is the socket address without a proxy header', async () => {
    expect(await ipWith()).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
  });

  it('is the address the proxy (a loopback peer here) put last in X-Forwarded-For, and nothing before it', async () => {
    expect(await ipWith('203.0.113.9')).toBe('203.0.113.9');
    // what a client wrote before the proxy's entry is not believed, private addresses included
    expect(await ipWith('198.51.100.1, 203.0.113.9')).toBe('203.0.113.9');
    expect(await ipWith('203.0.113.9, 10.0.0.5')).toBe('10.0.0.5');
  });
});
