import { once } from 'node:events';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PROBE_PATH_SPELLINGS, ROUTED_PATHS, serviceEntry } from '@lib/services';
import { getOnFreshConnection } from '@lib/testing';
import supertest from 'supertest';
import { createGateway, type AccessLine } from './gateway';

interface Echo {
  service: string;
  method: string;
  url: string;
  body: string;
  headers: IncomingHttpHeaders;
}

/** An upstream that answers every request with what it received. */
function echoServer(service: string): Server {
  return createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const echo: Echo = { service, method: req.method ?? '', url: req.url ?? '', body, headers: req.headers };
      res.writeHead(201, { 'Content-Type': 'application/json', 'X-Upstream': service });
      res.end(JSON.stringify(echo));
    });
  });
}

async function listen(server: Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

function rejectAfter(ms: number, message: string): Promise<never> {
  return new Promise((_resolve, reject) => setTimeout(() => reject(new Error(message)), ms).unref());
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));


describe('gateway', () => {
  const articles = echoServer('articles');
  const users = echoServer('users');
  const ports = new Map<string, number>();
  let unusedPort: number;
  let gateway: Server;
  const errors: string[] = [];
  const accessLines: AccessLine[] = [];

  beforeAll(async () => {
    ports.set('articles-api', await listen(articles));
    ports.set('users-api', await listen(users));
    // A port that was free a moment ago: nothing answers there.
    const probe = createServer();
    unusedPort = await listen(probe);
    await close(probe);
    ports.set('news-api', unusedPort);

    gateway = createGateway({
      services: [serviceEntry('articles-api', 'articles', 1), serviceEntry('users-api', 'users', 2), serviceEntry('news-api', 'news', 3)],
      domain: 'localhost',
      resolveTarget: (service) => `http://127.0.0.1:${ports.get(service.name) ?? 0}`,
      onProxyError: (service, err) => errors.push(`${service.name}:${err.code}`),
      onRequestDone: (line) => accessLines.push(line),
    });
  });

  afterAll(async () => {
    await Promise.all([close(articles), close(users)]);
  });

  it('routes by host, keeping method, path and query', async () => {
    const res = await supertest(gateway).get('/articles/7?page_size=2&q=a%20b').set('Host', 'articles.localhost:8080');
    expect(res.status).toBe(201);
    expect(res.headers['x-upstream']).toBe('articles');
    expect(res.body).toMatchObject({ service: 'articles', method: 'GET', url: '/articles/7?page_size=2&q=a%20b' });

    const other = await supertest(gateway).delete('/users/1').set('Host', 'users.localhost');
    expect(other.body).toMatchObject({ service: 'users', method: 'DELETE', url: '/users/1' });
  });

  it('passes the request body and sets forwarding headers', async () => {
    const res = await supertest(gateway)
      .post('/users?x=1')
      .set('Host', 'users.localhost:8080')
      .set('Content-Type', 'application/json')
      .send({ name: 'Ada', tags: ['a', 'b'] });
    const echo = res.body as Echo;
    expect(echo).toMatchObject({ service: 'users', method: 'POST', url: '/users?x=1' });
    expect(JSON.parse(echo.body)).toEqual({ name: 'Ada', tags: ['a', 'b'] });
    expect(echo.headers['content-type']).toBe('application/json');
    expect(echo.headers.host).toBe('users.localhost:8080');
    expect(echo.headers['x-forwarded-host']).toBe('users.localhost:8080');
    expect(echo.headers['x-forwarded-proto']).toBe('http');
    expect(echo.headers['x-forwarded-for']).toBe('127.0.0.1');
  });

  it('replaces the forwarding headers a client sent with what the gateway saw', async () => {
    const res = await supertest(gateway)
      .get('/users')
      .set('Host', 'users.localhost:8080')
      .set('X-Forwarded-For', '203.0.113.9, 10.0.0.7')
      .set('X-Forwarded-Proto', 'https')
      .set('X-Forwarded-Host', 'evil.example')
      .set('X-Forwarded-Port', '443')
      .set('Forwarded', 'for=203.0.113.9');
    const { headers } = res.body as Echo;
    expect(headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(headers['x-forwarded-proto']).toBe('http');
    expect(headers['x-forwarded-host']).toBe('users.localhost:8080');
    expect(headers['x-forwarded-port']).toMatch(/^\d+$/);
    expect(headers['x-forwarded-port']).not.toBe('443');
    expect(headers.forwarded).toBeUndefined();
  });

  describe('probe paths, like the public ingress', () => {
    let port: number;
    beforeAll(async () => {
      port = await listen(gateway);
    });
    afterAll(() => close(gateway));

    /** A GET with the request target exactly as given (supertest would resolve `//`, `..` and `#`). */
    const rawGet = (target: string) => getOnFreshConnection(port, target, { Host: 'articles.localhost' });

    it.each(PROBE_PATH_SPELLINGS)('refuses %s without asking the service', async (target) => {
      const res = await rawGet(target);
      expect(res.status).toBe(404);
      expect(JSON.parse(res.body)).toEqual({
        error: {
          code: 'not_routed',
          message: '/healthz, /readyz and /metrics are internal paths (probes, metrics), not routed in any spelling: ask the service on its own port',
        },
      });
    });

    // http-proxy rebuilds the upstream path with url.parse, which turns a backslash into a slash:
    // the gateway alone meets these (nginx keeps a backslash as it is, and the app answers 404)
    it.each(['/\\readyz', '/\\healthz', '/x\\..\\readyz'])('refuses %s, which the proxy would send upstream as a probe path', async (target) => {
      const res = await rawGet(target);
      expect(res.status).toBe(404);
      expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'not_routed' } });
    });

    it.each(ROUTED_PATHS)('routes %s to the service', async (target) => {
      const res = await rawGet(target);
      expect(res.status).toBe(201);
      expect(JSON.parse(res.body)).toMatchObject({ service: 'articles' });
    });
  });

  it('passes traceparent and tracestate through unchanged', async () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const res = await supertest(gateway).get('/articles').set('Host', 'articles.localhost').set('traceparent', traceparent).set('tracestate', 'vendor=x');
    const { headers } = res.body as Echo;
    expect(headers.traceparent).toBe(traceparent);
    expect(headers.tracestate).toBe('vendor=x');
  });

  describe('access log', () => {
    const lineFor = async (path: string) => {
      for (let i = 0; i < 100; i++) {
        const line = accessLines.find((l) => l.path === path);
        if (line) return line;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no access line for ${path}`);
    };

    it('writes one line per proxied request: method, host, path without the query, status, duration, upstream', async () => {
      await supertest(gateway).post('/users/logged?access_token=secret').set('Host', 'users.localhost:8080').send({ a: 1 });
      const line = await lineFor('/users/logged');
      expect(line).toEqual({ method: 'POST', host: 'users.localhost:8080', path: '/users/logged', status: 201, ms: expect.any(Number), upstream: 'users-api' });
      expect(line.ms).toBeGreaterThanOrEqual(0);
      expect(accessLines.filter((l) => l.path === '/users/logged')).toHaveLength(1);
      expect(JSON.stringify(accessLines)).not.toContain('secret');
    });

    it('logs what the gateway answered itself, without an upstream', async () => {
      await supertest(gateway).get('/metrics').set('Host', 'articles.localhost');
      expect(await lineFor('/metrics')).toEqual({ method: 'GET', host: 'articles.localhost', path: '/metrics', status: 404, ms: expect.any(Number) });
      await supertest(gateway).get('/unknown-host-path').set('Host', 'nowhere.example');
      expect(await lineFor('/unknown-host-path')).toMatchObject({ status: 421, host: 'nowhere.example' });
    });
  });

  it('matches the host case-insensitively', async () => {
    const res = await supertest(gateway).get('/').set('Host', 'ARTICLES.LocalHost:8080');
    expect(res.body).toMatchObject({ service: 'articles' });
  });

  it('answers 421 with the known hosts for an unknown host', async () => {
    const res = await supertest(gateway).get('/articles').set('Host', 'crm.example.com');
    expect(res.status).toBe(421);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      error: {
        code: 'unknown_host',
        message: 'No service for host "crm.example.com"; known hosts: articles.localhost, users.localhost, news.localhost',
      },
    });
  });

  it('answers 421 for a bare domain and for a request without a Host header', async () => {
    const bare = await supertest(gateway).get('/').set('Host', 'localhost:8080');
    expect(bare.status).toBe(421);
    expect(bare.body.error.message).toMatch(/^No service for host "localhost:8080"/);

    // HTTP/1.0 allows a request without Host; Node's client adds one unless told not to.
    const port = await listen(gateway);
    try {
      const res = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
        const req = request({ port, host: '127.0.0.1', path: '/', setHost: false }, (response) => {
          let body = '';
          response.on('data', (chunk) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode, body }));
        });
        req.on('error', reject);
        req.end();
      });
      expect(res.status).toBe(421);
      expect(JSON.parse(res.body).error.message).toMatch(/^No service for host ""; known hosts: /);
    } finally {
      await close(gateway);
    }
  });

  it('answers 502 without details when the upstream is down', async () => {
    const res = await supertest(gateway).get('/news').set('Host', 'news.localhost');
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ error: { code: 'bad_gateway', message: 'news-api is not reachable' } });
    expect(errors).toContain('news-api:ECONNREFUSED');
  });

  it('answers 502 when the upstream drops the connection, and keeps serving', async () => {
    const dropping = createServer((req) => req.socket.destroy());
    ports.set('news-api', await listen(dropping));
    try {
      const res = await supertest(gateway).get('/news').set('Host', 'news.localhost');
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ error: { code: 'bad_gateway', message: 'news-api failed to answer' } });
    } finally {
      ports.set('news-api', unusedPort);
      await close(dropping);
    }
    const after = await supertest(gateway).get('/').set('Host', 'users.localhost');
    expect(after.status).toBe(201);
  });

  it('cancels the upstream request when the client hangs up', async () => {
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((resolve) => (upstreamClosed = resolve));
    // Never answers; records when the gateway abandons the request.
    const slow = createServer((_req, res) => res.on('close', upstreamClosed));
    ports.set('news-api', await listen(slow));
    const port = await listen(gateway);
    try {
      const client = request({ port, host: '127.0.0.1', path: '/slow', headers: { Host: 'news.localhost' } });
      client.on('error', () => undefined);
      client.end();
      // Give the gateway time to connect upstream, then hang up.
      await new Promise((resolve) => setTimeout(resolve, 200));
      client.destroy();
      await Promise.race([closed, rejectAfter(3_000, 'the upstream request was left running')]);
    } finally {
      ports.set('news-api', unusedPort);
      slow.closeAllConnections();
      gateway.closeAllConnections();
      await Promise.all([close(slow), close(gateway)]);
    }
  });
});
