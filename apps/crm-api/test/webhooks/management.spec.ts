import type { HttpError } from '@lib/errors';
import http from 'node:http';
import { Webhook } from 'standardwebhooks';
import { eventually, testSettings, testWrites, useWebhookEngine } from './engine';
import { startReceiver, type Receiver } from './receiver';

const ACCOUNT = 31;
const headersOf = (r: { headers: http.IncomingHttpHeaders }) => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
});
const failure = async (promise: Promise<unknown>) => (await promise.then(() => undefined, (err: HttpError) => err)) as HttpError | undefined;

describe('webhook management use cases', () => {
  const engine = useWebhookEngine();
  let receiver: Receiver;
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(() => receiver.close());

  it('creates an enabled webhook with a whsec_ secret, reads its events as patterns, and refuses bad events naming each', async () => {
    const { service } = engine.build();
    const { webhook, secret } = await service.create(engine.store(ACCOUNT), { url: receiver.url(), events: ['Contact is Created', 'deal.*', 'deal.*'], description: 'CRM sync' });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(webhook).toMatchObject({ account: ACCOUNT, url: receiver.url(), events: ['contact.created', 'deal.*'], description: 'CRM sync', enabled: true, disabled_reason: null });
    expect(await service.get(engine.store(ACCOUNT), webhook._id)).toMatchObject({ _id: webhook._id, secrets: [{ key: secret, expires_at: null }] });
    await expect(service.get(engine.store(ACCOUNT + 1), webhook._id)).rejects.toMatchObject({ status: 404, code: 'webhook_not_found' });
    const err = await failure(service.create(engine.store(ACCOUNT), { url: receiver.url(), events: ['contact.created', 'Contact.Created', 'deal.moved'], description: 'x'.repeat(501) }));
    expect(err).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(err?.details).toEqual([
      { field: 'events', message: expect.stringMatching(/^events\[1\] "Contact\.Created" is not an event name/) },
      { field: 'events', message: expect.stringMatching(/^events\[2\] "deal\.moved"/) },
      { field: 'description', message: 'is longer than 500 characters' },
    ]);
    expect(await failure(service.create(engine.store(ACCOUNT), { url: receiver.url(), events: [] }))).toMatchObject({ status: 400, details: [{ field: 'events', message: 'must name at least one event (or "*")' }] });
    expect(await service.list(engine.store(ACCOUNT), 10)).toHaveLength(1);
  });

  it('keeps to the webhooks per account, also when creates race', async () => {
    const { service } = engine.build(testSettings({ limits: { webhooksPerAccount: 3, pendingPerAccount: 10, outboxCap: 10 } }));
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => service.create(engine.store(ACCOUNT), { url: receiver.url(), events: ['*'] })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    for (const r of results.filter((x): x is PromiseRejectedResult => x.status === 'rejected')) expect(r.reason).toMatchObject({ status: 409, code: 'webhook_limit', message: 'An account has at most 3 webhooks; delete one first' });
    expect(await service.list(engine.store(ACCOUNT), 10)).toHaveLength(3);
    expect(await service.list(engine.store(ACCOUNT + 1), 10)).toHaveLength(0);
  });

  it('rotates the secret: old and new both sign for the window, then only the new one', async () => {
    const webhooks = engine.build(testSettings({ rotationWindowMs: 1_500 }));
    const { webhook, secret: old } = await webhooks.service.create(engine.store(ACCOUNT), { url: receiver.url(), events: ['contact.*'] });
    const { secret: current, webhook: rotated } = await webhooks.service.rotateSecret(engine.store(ACCOUNT), webhook._id);
    expect(current).not.toBe(old);
    expect(rotated.secrets.map((s) => s.key)).toEqual([old, current]);
    webhooks.worker.start();
    const writes = testWrites(engine.connection, webhooks.recorder);
    await writes.create(ACCOUNT, 1, 'during');
    const [during] = await receiver.waitFor(1);
    expect(during.headers['webhook-signature']?.toString().split(' ')).toHaveLength(2);
    expect(new Webhook(old).verify(during.body, headersOf(during))).toMatchObject({ eventName: 'Contact is Created' });
    expect(new Webhook(current).verify(during.body, headersOf(during))).toMatchObject({ eventName: 'Contact is Created' });
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    await writes.update(ACCOUNT, 1, 'after');
    const [, after] = await receiver.waitFor(2);
    expect(() => new Webhook(old).verify(after.body, headersOf(after))).toThrow(/No matching signature/);
    expect(new Webhook(current).verify(after.body, headersOf(after))).toMatchObject({ eventName: 'Contact is Updated' });
    await expect(webhooks.service.rotateSecret(engine.store(ACCOUNT + 1), webhook._id)).rejects.toMatchObject({ status: 404 });
  });

  it('sends a test event once, shows it in the delivery log, and replays an ended delivery with the same webhook-id', async () => {
    receiver.answer((_r, i) => (i === 0 ? { status: 500, body: 'down' } : { status: 204 }));
    const webhooks = engine.build();
    const { webhook, secret } = await webhooks.service.create(engine.store(ACCOUNT), { url: receiver.url(), events: ['deal.*'] });
    webhooks.worker.start();
    const test = await webhooks.service.sendTest(engine.store(ACCOUNT), webhook._id);
    const [first] = await receiver.waitFor(1);
    expect(new Webhook(secret).verify(first.body, headersOf(first))).toEqual({ eventName: 'webhook.test', eventData: { webhook_id: webhook._id, message: expect.any(String) } });
    const failed = await eventually(async () => {
      const d = await webhooks.service.delivery(engine.store(ACCOUNT), webhook._id, test._id);
      return d.state === 'failed' && d;
    });
    expect(failed).toMatchObject({ attempts: 1, event: 'webhook.test', reason: 'no 2xx answer after 1 attempts (last: HTTP 500)' });
    expect(failed.log).toEqual([expect.objectContaining({ status: 500, response: 'down' })]);
    expect((await engine.webhook(webhook._id))?.enabled).toBe(true); // a failed test disables nothing
    const replay = await webhooks.service.replay(engine.store(ACCOUNT), webhook._id, test._id);
    expect(replay).toMatchObject({ replay_of: test._id, event_id: test.event_id, body: test.body, state: 'pending' });
    const [, second] = await receiver.waitFor(2);
    expect(second.headers['webhook-id']).toBe(test.event_id);
    await eventually(async () => (await webhooks.service.delivery(engine.store(ACCOUNT), webhook._id, replay._id)).state === 'delivered');
    const log = await webhooks.service.deliveries(engine.store(ACCOUNT), webhook._id, 10);
    expect(log.map((d) => d._id)).toEqual([replay._id, test._id]);
    expect(await webhooks.service.deliveries(engine.store(ACCOUNT), webhook._id, 10, replay._id)).toEqual([expect.objectContaining({ _id: test._id })]);
    await expect(webhooks.service.replay(engine.store(ACCOUNT), webhook._id, 'dlv_nope')).rejects.toMatchObject({ status: 404, code: 'delivery_not_found' });
    await expect(webhooks.service.deliveries(engine.store(ACCOUNT + 1), webhook._id, 10)).rejects.toMatchObject({ status: 404, code: 'webhook_not_found' });
  });

  it('refuses tests and replays past the pending deliveries of the account, and for a disabled webhook', async () => {
    const webhooks = engine.build(testSettings({ limits: { webhooksPerAccount: 5, pendingPerAccount: 2, outboxCap: 10 } }));
    const { webhook } = await webhooks.service.create(engine.store(ACCOUNT), { url: receiver.url(), events: ['*'] });
    await webhooks.service.sendTest(engine.store(ACCOUNT), webhook._id);
    const pending = await webhooks.service.sendTest(engine.store(ACCOUNT), webhook._id);
    await expect(webhooks.service.sendTest(engine.store(ACCOUNT), webhook._id)).rejects.toMatchObject({ status: 429, code: 'delivery_limit', headers: { 'Retry-After': '60' } });
    await expect(webhooks.service.replay(engine.store(ACCOUNT), webhook._id, pending._id)).rejects.toMatchObject({ status: 409, code: 'delivery_pending' });
    // disabling cancels what waits, and enabling clears the reason
    const disabled = await webhooks.service.update(engine.store(ACCOUNT), webhook._id, { enabled: false });
    expect(disabled).toMatchObject({ enabled: false, disabled_reason: null });
    expect((await engine.deliveries()).map((d) => [d.state, d.reason])).toEqual([
      ['cancelled', 'webhook disabled by the account'],
      ['cancelled', 'webhook disabled by the account'],
    ]);
    await expect(webhooks.service.sendTest(engine.store(ACCOUNT), webhook._id)).rejects.toMatchObject({ status: 409, code: 'webhook_disabled' });
    await expect(webhooks.service.replay(engine.store(ACCOUNT), webhook._id, pending._id)).rejects.toMatchObject({ status: 409, code: 'webhook_disabled' });
    const enabled = await webhooks.service.update(engine.store(ACCOUNT), webhook._id, { enabled: true, events: ['task.*'], url: receiver.url('/other') });
    expect(enabled).toMatchObject({ enabled: true, events: ['task.*'], url: receiver.url('/other'), disabled_at: null });
    await expect(webhooks.service.update(engine.store(ACCOUNT), webhook._id, { url: 'https://10.0.0.1/x' })).rejects.toMatchObject({ status: 400 });
    await expect(webhooks.service.update(engine.store(ACCOUNT + 1), webhook._id, { enabled: false })).rejects.toMatchObject({ status: 404 });
  });
});
