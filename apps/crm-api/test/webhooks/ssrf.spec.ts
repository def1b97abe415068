import type { HttpError } from '@lib/errors';
import { loadConfig } from '../../src/config';
import { eventually, NOTHING_ALLOWED, testSettings, testWrites, useWebhookEngine } from './engine';
import { startReceiver, type Receiver } from './receiver';

const ACCOUNT = 21;
const PUBLIC = '93.184.215.14';

/** A resolver answering from a table of names, in turn per name when a name has several answers. */
function resolverOf(table: Record<string, string[]>) {
  const calls = new Map<string, number>();
  return async (host: string) => {
    const answers = table[host];
    if (!answers) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    const n = calls.get(host) ?? 0;
    calls.set(host, n + 1);
    const address = answers[Math.min(n, answers.length - 1)];
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };
}

describe('webhook receivers are reached safely (SSRF)', () => {
  const engine = useWebhookEngine();
  let receiver: Receiver;
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(() => receiver.close());

  const createError = async (promise: Promise<unknown>) => (await promise.then(() => undefined, (err: HttpError) => err)) as HttpError | undefined;

  it('refuses, when a webhook is created, a URL that is not https or whose address is not public, naming the rule', async () => {
    const webhooks = engine.build(testSettings({}, { allowed: NOTHING_ALLOWED }));
    const refused = async (url: string) => {
      const err = await createError(webhooks.service.create(engine.store(ACCOUNT), { url, events: ['*'] }));
      expect(err?.status).toBe(400);
      return (err?.details as { field: string; message: string }[])[0];
    };
    expect(await refused('http://hooks.example.com/in')).toEqual({ field: 'url', message: 'refused: plain http to hooks.example.com: use https, or list it in WEBHOOK_ALLOWED_HOSTS if it is a deliberate internal one' });
    expect((await refused('https://127.0.0.1/in')).message).toBe('refused: 127.0.0.1 is a loopback address; list it in WEBHOOK_ALLOWED_HOSTS if it is a deliberate internal one');
    expect((await refused('https://10.1.2.3/in')).message).toMatch(/is a private address/);
    expect((await refused('https://169.254.169.254/latest/meta-data')).message).toMatch(/is a cloud metadata address/);
    expect((await refused('https://[::ffff:127.0.0.1]/in')).message).toMatch(/is a loopback address/);
    expect((await refused('https://user:pass@hooks.example.com/in')).message).toMatch(/credentials in the URL/);
    expect((await refused('ftp://hooks.example.com/in')).message).toMatch(/not an http\(s\) URL/);
    expect((await refused(`https://hooks.example.com/${'a'.repeat(2048)}`)).message).toBe('is longer than 2048 characters');
    expect(await engine.deliveries()).toEqual([]);
    expect(await webhooks.service.list(engine.store(ACCOUNT), 10)).toEqual([]);
  });

  it('refuses at delivery a name that resolves to a private address, and one that turns private between the check and the connection (DNS rebinding)', async () => {
    const resolve = resolverOf({ 'inside.example.com': ['10.0.0.7'], 'rebinding.example.com': [PUBLIC, '127.0.0.1'] });
    // plain http allowed to public addresses (development), so only the address decides
    const webhooks = engine.build(testSettings({ retry: { delaysMs: [], jitter: 0, retryAfterMinMs: 10, retryAfterMaxMs: 10 } }, { allowed: NOTHING_ALLOWED, allowHttp: true, resolve }));
    const port = new URL(receiver.url()).port;
    const inside = await webhooks.service.create(engine.store(ACCOUNT), { url: 'https://inside.example.com/in', events: ['*'] });
    const rebinding = await webhooks.service.create(engine.store(ACCOUNT), { url: `http://rebinding.example.com:${port}/in`, events: ['*'] });
    webhooks.worker.start();
    await testWrites(engine.connection, webhooks.recorder).create(ACCOUNT, 1, 'x');
    const docs = await eventually(async () => {
      const all = await engine.deliveries();
      return all.length === 2 && all.every((d) => d.state === 'failed') && all;
    });
    const errorOf = (id: number) => docs.find((d) => d.webhook === id)!.log[0].error;
    expect(errorOf(inside.webhook._id)).toBe('refused: inside.example.com resolves to a private address; list it in WEBHOOK_ALLOWED_HOSTS if it is a deliberate internal one');
    expect(errorOf(rebinding.webhook._id)).toMatch(/^refused: rebinding\.example\.com resolves to a loopback address/);
    expect(receiver.received).toEqual([]);
  });

  it('lets WEBHOOK_ALLOWED_HOSTS through: a listed name or address, over plain http too', async () => {
    const resolve = resolverOf({ 'hooks.internal': ['127.0.0.1'] });
    const webhooks = engine.build(testSettings({}, { resolve }));
    const port = new URL(receiver.url()).port;
    await webhooks.service.create(engine.store(ACCOUNT), { url: `http://hooks.internal:${port}/named`, events: ['*'] });
    await webhooks.service.create(engine.store(ACCOUNT), { url: receiver.url('/address'), events: ['*'] });
    webhooks.worker.start();
    await testWrites(engine.connection, webhooks.recorder).create(ACCOUNT, 1, 'x');
    const got = await receiver.waitFor(2);
    expect(got.map((r) => r.path).sort()).toEqual(['/address', '/named']);
  });

  it('reads WEBHOOK_ALLOWED_HOSTS once at start, empty by default; plain http to public receivers only in development', () => {
    const production = { NODE_ENV: 'production', CRM_ADMIN_EMAIL: 'o@acme.test', CRM_DOMAIN: 'acme', CRM_ADMIN_API_KEY: '7d1f3b5a9c2e4f6a8b0c1d3e5f7a9b2c4d6e8f0a', CRM_CURSOR_SECRET: 'e4c6a8f0b2d41357ace02468bdf13579ca8e6f42' };
    expect(loadConfig(production).webhooks.policy).toMatchObject({ allowHttp: false, allowed: { names: [], blocks: [] } });
    expect(loadConfig({ NODE_ENV: 'test' }).webhooks.policy.allowHttp).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development' }).webhooks.policy.allowHttp).toBe(true);
    const listed = loadConfig({ ...production, WEBHOOK_ALLOWED_HOSTS: 'hooks.internal, 10.0.0.0/8', WEBHOOK_POLL_MS: '250', WEBHOOK_CONCURRENCY: '4', WEBHOOK_LEASE_MS: '15000' }).webhooks;
    expect(listed).toMatchObject({ pollMs: 250, concurrency: 4, leaseMs: 15_000, policy: { allowed: { variable: 'WEBHOOK_ALLOWED_HOSTS', names: ['hooks.internal'], blocks: ['10.0.0.0/8'] } } });
    expect(() => loadConfig({ WEBHOOK_ALLOWED_HOSTS: 'http://x', WEBHOOK_POLL_MS: '5', WEBHOOK_CONCURRENCY: '0' })).toThrow(
      /WEBHOOK_ALLOWED_HOSTS: "http:\/\/x" is not a host name[\s\S]*WEBHOOK_POLL_MS: must be at least 50[\s\S]*WEBHOOK_CONCURRENCY: must be at least 1/,
    );
  });
});
