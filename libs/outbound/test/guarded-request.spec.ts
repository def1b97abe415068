import { metricsRegistry } from '@lib/http';
import { allowedHosts, guardedRequest, outboundPolicy, OutboundError, type GuardedRequestOptions, type OutboundPolicy } from '../src';
import { fakeResolver, startLocalServer, TEST_CA, type LocalServer } from './local-servers';

// What a public host resolves to in these tests; no test ever connects to it (each is refused first).
const PUBLIC_V4 = '93.184.215.14';

let web: LocalServer;
let secure: LocalServer;
beforeAll(async () => {
  web = await startLocalServer();
  secure = await startLocalServer({ tls: true });
});
afterAll(async () => {
  await web.close();
  await secure.close();
});
beforeEach(() => {
  web.seen.length = 0;
  secure.seen.length = 0;
});

const policyOf = (allowed: string, extra: Partial<Parameters<typeof outboundPolicy>[0]> = {}): OutboundPolicy =>
  outboundPolicy({ name: 'tests', allowed: allowedHosts(allowed, 'TEST_ALLOWED_HOSTS'), ca: [TEST_CA], resolve: fakeResolver({}).resolve, ...extra });

const send = (url: string, policy: OutboundPolicy, options: Partial<GuardedRequestOptions> = {}) =>
  guardedRequest(url, { policy, timeoutMs: 5_000, maxBytes: 64 * 1024, ...options });

/** The OutboundError a request fails with (the test fails if it answers). */
async function failureOf(request: Promise<unknown>): Promise<OutboundError> {
  const err = await request.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof OutboundError)) throw new Error(`expected an OutboundError, got ${err instanceof Error ? err.stack : String(err)}`);
  return err;
}

const refusedCount = async (rule: string) =>
  (await metricsRegistry.getSingleMetric('outbound_refused_total')?.get())?.values.find((v) => v.labels.caller === 'tests' && v.labels.rule === rule)?.value ?? 0;

describe('guardedRequest: addresses', () => {
  it.each([
    ['https://127.0.0.1/', 'loopback'],
    ['https://127.8.9.10/', 'loopback'],
    ['https://2130706433/', 'loopback'], // 127.0.0.1 written as one number: the URL parser makes it 127.0.0.1
    ['https://10.1.2.3/', 'private'],
    ['https://172.16.0.1/', 'private'],
    ['https://192.168.1.1/', 'private'],
    ['https://100.64.0.1/', 'shared (carrier-grade NAT)'],
    ['https://169.254.1.1/', 'link-local'],
    ['https://169.254.169.254/latest/meta-data/', 'cloud metadata'],
    ['https://0.0.0.0/', 'unspecified'],
    ['https://224.0.0.1/', 'multicast'],
    ['https://240.0.0.1/', 'reserved'],
    ['https://[::1]/', 'loopback'],
    ['https://[::]/', 'unspecified'],
    ['https://[::ffff:127.0.0.1]/', 'loopback'],
    ['https://[::ffff:7f00:1]/', 'loopback'],
    ['https://[::ffff:169.254.169.254]/', 'cloud metadata'],
    ['https://[64:ff9b::10.0.0.1]/', 'private'],
    ['https://[fe80::1]/', 'link-local'],
    ['https://[fd00::1]/', 'unique-local'],
    ['https://[fd00:ec2::254]/', 'cloud metadata'],
    ['https://[ff02::1]/', 'multicast'],
    ['https://[::7f00:1]/', 'reserved'], // IPv4-compatible (deprecated), outside global unicast
  ])('refuses %s (%s) without a lookup or a connection', async (url, range) => {
    const { resolve, calls } = fakeResolver({});
    const err = await failureOf(send(url, policyOf('', { resolve })));
    expect(err.failure).toBe('refused');
    expect(err.message).toMatch(new RegExp(`^refused: \\S+ is an? ${range.replace(/[()]/g, '\\$&')} address; list it in TEST_ALLOWED_HOSTS`));
    expect(calls).toEqual([]);
  });

  it('refuses a public-looking name that resolves to a private address, naming the host but not the address', async () => {
    const { resolve } = fakeResolver({ 'feeds.example.com': ['10.0.0.7'] });
    const err = await failureOf(send('https://feeds.example.com/rss.xml', policyOf('', { resolve })));
    expect(err).toMatchObject({ failure: 'refused', rule: 'private', address: '10.0.0.7' });
    expect(err.message).toBe('refused: feeds.example.com resolves to a private address; list it in TEST_ALLOWED_HOSTS if it is a deliberate internal one');
  });

  it('refuses a name when any of its addresses is not public', async () => {
    const { resolve } = fakeResolver({ 'mixed.example.com': [PUBLIC_V4, '::ffff:127.0.0.1'] });
    const err = await failureOf(send('https://mixed.example.com/', policyOf('', { resolve })));
    expect(err).toMatchObject({ failure: 'refused', rule: 'loopback' });
  });

  it('checks again when the socket connects: a name that turns private after the first check (DNS rebinding) is refused', async () => {
    const { resolve, calls } = fakeResolver({ 'rebind.test': (call) => (call === 1 ? [PUBLIC_V4] : ['127.0.0.1']) });
    const err = await failureOf(send(secure.url('/', 'rebind.test'), policyOf('', { resolve })));
    expect(err).toMatchObject({ failure: 'refused', rule: 'loopback', message: expect.stringContaining('rebind.test resolves to a loopback address') });
    expect(calls).toEqual(['rebind.test', 'rebind.test']);
    expect(secure.seen).toEqual([]);
  });

  it('counts refusals by rule', async () => {
    const before = await refusedCount('cloud_metadata');
    await failureOf(send('https://169.254.169.254/', policyOf('')));
    expect(await refusedCount('cloud_metadata')).toBe(before + 1);
  });

  it('answers a name that cannot be resolved with a clear failure', async () => {
    const err = await failureOf(send('https://nowhere.example.com/', policyOf('')));
    expect(err).toMatchObject({ failure: 'unresolvable', message: 'cannot resolve nowhere.example.com: ENOTFOUND' });
  });
});

describe('guardedRequest: plain http and the allow-list', () => {
  it('refuses plain http to a host that is not allow-listed, before any lookup', async () => {
    const { resolve, calls } = fakeResolver({ 'news.example.com': [PUBLIC_V4] });
    const err = await failureOf(send('http://news.example.com/rss', policyOf('', { resolve })));
    expect(err).toMatchObject({ failure: 'refused', rule: 'plain_http', message: 'refused: plain http to news.example.com: use https, or list it in TEST_ALLOWED_HOSTS if it is a deliberate internal one' });
    expect(calls).toEqual([]);
  });

  it('allowHttp (development) lets plain http through to public addresses, never to private ones', async () => {
    // public at the first check (plain http passes), loopback when connecting: refused for the address
    const { resolve } = fakeResolver({ 'dev-receiver.example.com': (call) => (call === 1 ? [PUBLIC_V4] : ['127.0.0.1']) });
    const err = await failureOf(send(web.url('/feed', 'dev-receiver.example.com'), policyOf('', { allowHttp: true, resolve })));
    expect(err).toMatchObject({ failure: 'refused', rule: 'loopback' });
    expect(await failureOf(send(web.url('/feed'), policyOf('', { allowHttp: true })))).toMatchObject({ failure: 'refused', rule: 'loopback' });
    expect(web.seen).toEqual([]);
  });

  it.each([
    ['an address', '127.0.0.1', (s: LocalServer) => s.url('/feed')],
    ['a CIDR block', '10.0.0.0/8, 127.0.0.0/8', (s: LocalServer) => s.url('/feed')],
    ['a CIDR block, for a name resolving into it', '127.0.0.0/8', (s: LocalServer) => s.url('/feed', 'feeds.test')],
    ['a host name', 'FEEDS.test.', (s: LocalServer) => s.url('/feed', 'feeds.test')],
  ])('lets a local server listed by %s through, over plain http', async (_how, allowed, urlOf) => {
    web.on('/feed', (_req, res) => res.writeHead(200, { 'content-type': 'application/rss+xml' }).end('<rss/>'));
    const { resolve } = fakeResolver({ 'feeds.test': ['127.0.0.1'] });
    const url = urlOf(web);
    const res = await send(url, policyOf(allowed, { resolve }), { headers: { accept: 'application/rss+xml' } });
    expect(res).toMatchObject({ status: 200, url, redirects: 0, body: { truncated: false } });
    expect(res.headers['content-type']).toBe('application/rss+xml');
    expect(res.body.bytes.toString()).toBe('<rss/>');
    expect(web.seen).toEqual([expect.objectContaining({ method: 'GET', url: '/feed', headers: expect.objectContaining({ accept: 'application/rss+xml', host: new URL(url).host }) })]);
  });

  it('a listed name does not list the other names that resolve to the same address', async () => {
    const { resolve } = fakeResolver({ 'feeds.test': ['127.0.0.1'], 'other.test': ['127.0.0.1'] });
    const err = await failureOf(send(secure.url('/', 'other.test'), policyOf('feeds.test', { resolve })));
    expect(err).toMatchObject({ failure: 'refused', rule: 'loopback' });
  });

  it('speaks https to an allow-listed host by name, checking its certificate for that name', async () => {
    secure.on('/feed', (_req, res) => res.end('secure'));
    const { resolve } = fakeResolver({ 'feeds.test': ['127.0.0.1'], 'wrong-name.test': ['127.0.0.1'] });
    const policy = policyOf('127.0.0.1', { resolve });
    expect((await send(secure.url('/feed', 'feeds.test'), policy)).body.bytes.toString()).toBe('secure');
    const err = await failureOf(send(secure.url('/feed', 'wrong-name.test'), policy));
    expect(err).toMatchObject({ failure: 'unreachable', message: 'cannot connect: ERR_TLS_CERT_ALTNAME_INVALID' });
  });
});

describe('guardedRequest: redirects', () => {
  const redirect = (status: number, to: () => string) => (_req: unknown, res: import('node:http').ServerResponse) => res.writeHead(status, { location: to() }).end();

  it('follows redirects up to the limit, checking each target', async () => {
    web.on('/a', redirect(301, () => '/b'));
    web.on('/b', redirect(307, () => web.url('/c')));
    web.on('/c', (_req, res) => res.end('arrived'));
    const res = await send(web.url('/a'), policyOf('127.0.0.1'), { maxRedirects: 3 });
    expect(res).toMatchObject({ status: 200, url: web.url('/c'), redirects: 2 });
    expect(res.body.bytes.toString()).toBe('arrived');
  });

  it('returns a redirect as it is when the caller follows none', async () => {
    web.on('/moved', redirect(302, () => 'https://elsewhere.example.com/'));
    const res = await send(web.url('/moved'), policyOf('127.0.0.1'));
    expect(res).toMatchObject({ status: 302, redirects: 0 });
    expect(res.headers.location).toBe('https://elsewhere.example.com/');
  });

  it('stops a redirect loop after the limit', async () => {
    web.on('/loop', redirect(302, () => '/loop'));
    const err = await failureOf(send(web.url('/loop'), policyOf('127.0.0.1'), { maxRedirects: 3 }));
    expect(err).toMatchObject({ failure: 'too_many_redirects', message: 'more than 3 redirects (the last to /loop)' });
    expect(web.hits('/loop')).toBe(4);
  });

  it('refuses a redirect from https to plain http, even to an allow-listed host', async () => {
    secure.on('/down', redirect(301, () => web.url('/feed')));
    const err = await failureOf(send(secure.url('/down'), policyOf('127.0.0.1'), { maxRedirects: 3 }));
    expect(err).toMatchObject({ failure: 'refused', rule: 'redirect_to_http', message: `refused: redirect from https to plain http (${web.url('/feed')})` });
    expect(web.seen).toEqual([]);
  });

  it.each([
    ['a private address', 'http://10.0.0.7/admin', 'private'],
    ['the metadata address', 'http://169.254.169.254/latest/meta-data/', 'cloud_metadata'],
    ['a name that resolves to loopback', 'https://sneaky.example.com/', 'loopback'],
  ])('refuses a redirect from an allowed host to %s', async (_what, location, rule) => {
    web.on('/jump', redirect(302, () => location));
    const { resolve } = fakeResolver({ 'feeds.test': ['127.0.0.1'], 'sneaky.example.com': ['127.0.0.1'] });
    const err = await failureOf(send(web.url('/jump', 'feeds.test'), policyOf('feeds.test', { resolve }), { maxRedirects: 3 }));
    expect(err).toMatchObject({ failure: 'refused', rule });
  });

  it('turns a POST into a GET on 303, and sends no credentials to another origin', async () => {
    web.on('/submit', redirect(303, () => web.url('/result', 'localhost')));
    web.on('/result', (_req, res) => res.end('done'));
    const { resolve } = fakeResolver({ localhost: ['127.0.0.1'] });
    const res = await send(web.url('/submit'), policyOf('127.0.0.1', { resolve }), {
      method: 'POST',
      headers: { authorization: 'Bearer secret', 'content-type': 'application/json', 'x-event': 'deal.created' },
      body: '{"a":1}',
      maxRedirects: 1,
    });
    expect(res.status).toBe(200);
    const [post, get] = web.seen;
    expect(post).toMatchObject({ method: 'POST', body: '{"a":1}', headers: expect.objectContaining({ authorization: 'Bearer secret' }) });
    expect(get).toMatchObject({ method: 'GET', url: '/result', body: '' });
    expect(get.headers).not.toHaveProperty('authorization');
    expect(get.headers).not.toHaveProperty('content-type');
    expect(get.headers['x-event']).toBe('deal.created');
  });
});

describe('guardedRequest: bounds', () => {
  it('stops reading past maxBytes and marks the body truncated (an endless answer ends)', async () => {
    let closed = false;
    web.on('/endless', (_req, res) => {
      res.on('close', () => (closed = true));
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const pump = () => {
        while (!closed && res.write(chunk));
        if (!closed) res.once('drain', pump);
      };
      pump();
    });
    const res = await send(web.url('/endless'), policyOf('127.0.0.1'), { maxBytes: 100_000 });
    expect(res.body.truncated).toBe(true);
    expect(res.body.bytes.length).toBe(100_000);
    // the server sees its answer closed: the guard abandoned it
    for (let i = 0; i < 100 && !closed; i++) await new Promise((r) => setTimeout(r, 20));
    expect(closed).toBe(true);
  });

  it('reads a body of exactly maxBytes whole', async () => {
    web.on('/exact', (_req, res) => res.end(Buffer.alloc(1000, 'y')));
    const res = await send(web.url('/exact'), policyOf('127.0.0.1'), { maxBytes: 1000 });
    expect(res.body).toEqual({ bytes: Buffer.alloc(1000, 'y'), truncated: false });
  });

  it('gives up on a server that does not answer within the time limit', async () => {
    web.on('/hang', () => undefined);
    const err = await failureOf(send(web.url('/hang'), policyOf('127.0.0.1'), { timeoutMs: 300 }));
    expect(err).toMatchObject({ failure: 'timeout', message: 'no complete answer within 300 ms' });
  });

  it('gives up on a resolver that does not answer within the time limit', async () => {
    const policy = policyOf('', { resolve: () => new Promise(() => undefined) });
    const err = await failureOf(send('https://slow-dns.example.com/', policy, { timeoutMs: 300 }));
    expect(err).toMatchObject({ failure: 'timeout' });
  });

  it('stops when the caller aborts (shutdown)', async () => {
    web.on('/hang', () => undefined);
    const stop = new AbortController();
    const pending = failureOf(send(web.url('/hang'), policyOf('127.0.0.1'), { signal: stop.signal }));
    setTimeout(() => stop.abort(), 50);
    expect(await pending).toMatchObject({ failure: 'aborted', message: 'stopped by the caller' });
  });

  it('names a refused connection', async () => {
    const closedServer = await startLocalServer();
    const url = closedServer.url('/');
    await closedServer.close();
    const err = await failureOf(send(url, policyOf('127.0.0.1')));
    expect(err).toMatchObject({ failure: 'unreachable', message: 'cannot connect: ECONNREFUSED' });
  });

  it.each([
    ['not a URL', 'not a url', 'bad_url'],
    ['another scheme', 'ftp://files.example.com/feed', 'bad_url'],
    ['credentials in the URL', 'https://user:pass@feeds.example.com/', 'refused'],
  ])('refuses %s', async (_what, url, failure) => {
    expect(await failureOf(send(url, policyOf('')))).toMatchObject({ failure });
  });
});
