import { createLogger } from '@lib/http';
import { logCommands, snapshotDatabase } from '@lib/testing';
import { Webhook } from 'standardwebhooks';
import { webhookModel, type WebhookDoc } from '../../src/webhooks/webhook.model';
import { crmWebhooks } from '../../src/wiring';
import { xmlOf } from '../activity-helpers';
import { person, setupCrmApp, type TestUser } from '../setup-app';
import { testSettings } from './engine-parts';
import { useReceiver } from './receiver';

/**
 * The management API under /dev/api/webhooks as a client calls it: owner and admins only, JSON and
 * XML, its errors, and what is stored afterwards. On an embedded server of its own (transactions).
 */
const settings = testSettings({ limits: { webhooksPerAccount: 3, pendingPerAccount: 50, outboxCap: 100 } });
const ctx = setupCrmApp({ webhooks: settings, ownServer: true, monitorCommands: true });
const BASE = '/dev/api/webhooks';

let owner: TestUser, admin: TestUser, plain: TestUser, rival: TestUser;
const worker = () => crmWebhooks(ctx.connection, createLogger('test', 'silent'), settings).worker;
const stored = () => webhookModel(ctx.connection).find({}).sort({ _id: 1 }).lean<WebhookDoc[]>();

const receiver = useReceiver(worker);
beforeEach(async () => {
  owner = await ctx.user('acme', 'olga@acme.test', { owner: true });
  admin = await ctx.user('acme', 'ada@acme.test', { admin: true });
  plain = await ctx.user('acme', 'pete@acme.test');
  rival = await ctx.user('rival', 'rex@rival.test', { admin: true });
});
afterEach(() => worker().stop());

it('creates a webhook answering its secret once; lists, gets and changes it; never shows a secret again', async () => {
  const created = await ctx.as(admin).post(BASE).send({ url: receiver().url(), events: ['Contact is Created', 'deal.*', 'deal.*'], description: 'CRM sync' });
  expect(created.status).toBe(200);
  expect(created.body).toEqual({
    id: expect.any(Number),
    url: receiver().url(),
    events: ['contact.created', 'deal.*'],
    description: 'CRM sync',
    enabled: true,
    created_time: expect.any(Number),
    updated_time: expect.any(Number),
    secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/),
  });
  const { secret, ...shown } = created.body;
  const [doc] = await stored();
  expect(doc).toMatchObject({ _id: created.body.id, account: admin.account, url: receiver().url(), events: ['contact.created', 'deal.*'], secrets: [{ key: secret, expires_at: null }] });

  expect((await ctx.as(owner).get(BASE)).body).toEqual([shown]);
  expect((await ctx.as(owner).get(`${BASE}/${shown.id}`)).body).toEqual(shown);

  const disabled = await ctx.as(admin).put(`${BASE}/${shown.id}`).send({ enabled: false, events: ['*'] });
  expect(disabled.status).toBe(200);
  expect(disabled.body).toEqual({ ...shown, enabled: false, events: ['*'], disabled_time: expect.any(Number), updated_time: expect.any(Number) });
  expect(disabled.body.secret).toBeUndefined();
  expect((await stored())[0]).toMatchObject({ enabled: false, events: ['*'], disabled_reason: null });

  const rotated = await ctx.as(admin).post(`${BASE}/${shown.id}/rotate-secret`);
  expect(rotated.status).toBe(200);
  expect(rotated.body.secret).toMatch(/^whsec_/);
  expect(rotated.body.secret).not.toBe(secret);
  expect((await stored())[0].secrets.map((s) => s.key)).toEqual([secret, rotated.body.secret]);

  expect((await ctx.as(admin).delete(`${BASE}/${shown.id}`)).status).toBe(204);
  expect(await stored()).toEqual([]);
  expect((await ctx.as(admin).get(`${BASE}/${shown.id}`)).body).toMatchObject({ error: { status: 404, code: 'webhook_not_found' } });
});

it('answers XML like the rest of crm', async () => {
  const res = await ctx.as(admin).post(BASE).set('Accept', 'application/xml').send({ url: receiver().url(), events: ['*'] });
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/xml/);
  expect(xmlOf(res)).toMatchObject({ webhook: { url: receiver().url(), enabled: 'true', secret: expect.stringMatching(/^whsec_/) } });
  const list = await ctx.as(admin).get(BASE).set('Accept', 'application/xml');
  expect(xmlOf(list)).toMatchObject({ webhooks: { webhook: { url: receiver().url() } } });
});

it('only the account owner and admins manage webhooks: others get 403 on every route, and nothing changes', async () => {
  const hook = (await ctx.as(admin).post(BASE).send({ url: receiver().url(), events: ['*'] })).body;
  await ctx.as(plain).get('/dev/api'); // signed in once (its time of last sign-in is stored)
  const before = await snapshotDatabase(ctx.connection);
  const calls = [
    () => ctx.as(plain).post(BASE).send({ url: receiver().url(), events: ['*'] }),
    () => ctx.as(plain).get(BASE),
    () => ctx.as(plain).get(`${BASE}/${hook.id}`),
    () => ctx.as(plain).put(`${BASE}/${hook.id}`).send({ enabled: false }),
    () => ctx.as(plain).delete(`${BASE}/${hook.id}`),
    () => ctx.as(plain).post(`${BASE}/${hook.id}/rotate-secret`),
    () => ctx.as(plain).post(`${BASE}/${hook.id}/test`),
    () => ctx.as(plain).get(`${BASE}/${hook.id}/deliveries`),
    () => ctx.as(plain).get(`${BASE}/${hook.id}/deliveries/dlv_01JAAAAAAAAAAAAAAAAAAAAAAA`),
    () => ctx.as(plain).post(`${BASE}/${hook.id}/deliveries/dlv_01JAAAAAAAAAAAAAAAAAAAAAAA/replay`),
  ];
  for (const call of calls) {
    const res = await call();
    expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: { error: { status: 403, code: 'forbidden', message: 'Only the account owner or an admin manages webhooks' } } });
  }
  expect(await snapshotDatabase(ctx.connection)).toBe(before);
  expect((await ctx.as(owner).get(BASE)).status).toBe(200);
});

it("another account's webhook is not found on any route, and stays as it was", async () => {
  const hook = (await ctx.as(admin).post(BASE).send({ url: receiver().url(), events: ['*'] })).body;
  const test = (await ctx.as(admin).post(`${BASE}/${hook.id}/test`)).body;
  await ctx.as(rival).get('/dev/api'); // signed in once (its time of last sign-in is stored)
  const before = await snapshotDatabase(ctx.connection);
  const answers = [
    await ctx.as(rival).get(`${BASE}/${hook.id}`),
    await ctx.as(rival).put(`${BASE}/${hook.id}`).send({ url: receiver().url('/stolen') }),
    await ctx.as(rival).delete(`${BASE}/${hook.id}`),
    await ctx.as(rival).post(`${BASE}/${hook.id}/rotate-secret`),
    await ctx.as(rival).post(`${BASE}/${hook.id}/test`),
    await ctx.as(rival).get(`${BASE}/${hook.id}/deliveries`),
  ];
  expect(answers.map((r) => [r.status, r.body.error?.code])).toEqual(Array.from({ length: 6 }, () => [404, 'webhook_not_found']));
  const delivery = await ctx.as(rival).get(`${BASE}/${hook.id}/deliveries/${test.id}`);
  expect([delivery.status, delivery.body.error?.code]).toEqual([404, 'delivery_not_found']);
  expect((await ctx.as(rival).get(BASE)).body).toEqual([]);
  expect(await snapshotDatabase(ctx.connection)).toBe(before);
});

it('refuses bad webhooks with a 400 naming each field, storing nothing', async () => {
  const cases: Array<[object, string[]]> = [
    [{ url: 'ftp://hooks.example.com/x', events: ['*'] }, ['url']],
    [{ url: 'http://10.0.0.8/hook', events: ['*'] }, ['url']],
    [{ url: 'https://hooks.example.com/x', events: [] }, ['events']],
    [{ url: 'https://hooks.example.com/x', events: ['contact.moved', 'Contact.Created'] }, ['events', 'events']],
    [{ url: `https://hooks.example.com/${'x'.repeat(2100)}`, events: ['*'] }, ['url']],
    [{ url: 'https://hooks.example.com/x', events: ['*'], description: 'd'.repeat(501) }, ['description']],
    [{ url: 'https://hooks.example.com/x', events: ['*'], secret: 'whsec_mine' }, ['secret']],
    [{ events: ['*'] }, ['url']],
  ];
  for (const [body, fields] of cases) {
    const res = await ctx.as(admin).post(BASE).send(body);
    expect({ body, status: res.status, fields: (res.body.error?.fields ?? []).map((d: { field: string }) => d.field) }).toEqual({ body, status: 400, fields });
  }
  const hook = (await ctx.as(admin).post(BASE).send({ url: receiver().url(), events: ['*'] })).body;
  const refused = await ctx.as(admin).put(`${BASE}/${hook.id}`).send({});
  expect(refused.status).toBe(400);
  expect((await ctx.as(admin).put(`${BASE}/${hook.id}`).send({ url: 'https://169.254.169.254/latest' })).status).toBe(400);
  expect((await stored()).map((w) => w.url)).toEqual([receiver().url()]);
});

it('keeps to the webhooks per account (409 webhook_limit), also when creates race', async () => {
  const results = await Promise.all(Array.from({ length: 5 }, (_, i) => ctx.as(admin).post(BASE).send({ url: receiver().url(`/h${i}`), events: ['*'] })));
  expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 409, 409]);
  for (const r of results.filter((x) => x.status === 409)) expect(r.body).toEqual({ error: { status: 409, code: 'webhook_limit', message: 'An account has at most 3 webhooks; delete one first' } });
  expect(await stored()).toHaveLength(3);
  expect((await ctx.as(rival).post(BASE).send({ url: receiver().url(), events: ['*'] })).status).toBe(200);
});

it('sends a test event, lists the delivery log by pages (newest first), shows one delivery with its attempts, and replays it with the same webhook-id', async () => {
  const hook = (await ctx.as(admin).post(BASE).send({ url: receiver().url(), events: ['contact.*'] })).body;
  worker().start();
  const test = await ctx.as(admin).post(`${BASE}/${hook.id}/test`);
  expect(test.status).toBe(202);
  expect(test.body).toEqual({ id: expect.stringMatching(/^dlv_/), webhook_id: hook.id, message_id: expect.stringMatching(/^msg_/), event: 'webhook.test', state: 'pending', attempts: 0, created_time: expect.any(Number), next_attempt_time: expect.any(Number) });
  const [got] = await receiver().waitFor(1);
  const verified = new Webhook(hook.secret).verify(got.body, { 'webhook-id': String(got.headers['webhook-id']), 'webhook-timestamp': String(got.headers['webhook-timestamp']), 'webhook-signature': String(got.headers['webhook-signature']) });
  expect(verified).toMatchObject({ eventName: 'webhook.test', eventData: { webhook_id: hook.id } });
  expect(got.headers['webhook-id']).toBe(test.body.message_id);

  for (const name of ['A', 'B', 'C']) await ctx.as(admin).post('/dev/api/contacts').send(person(name));
  await receiver().waitFor(4);
  const first = await ctx.as(admin).get(`${BASE}/${hook.id}/deliveries?page_size=3`);
  expect(first.status).toBe(200);
  expect(first.body.map((d: { event: string }) => d.event)).toEqual(['contact.created', 'contact.created', 'contact.created']);
  expect(first.body[2].cursor).toBe(first.body[2].id);
  const second = await ctx.as(admin).get(`${BASE}/${hook.id}/deliveries?page_size=3&cursor=${first.body[2].cursor}`);
  expect(second.body).toEqual([expect.objectContaining({ id: test.body.id, event: 'webhook.test', state: 'delivered', attempts: 1, last_attempt: expect.objectContaining({ status: 200 }) })]);
  expect(second.body[0].cursor).toBeUndefined();

  const one = await ctx.as(admin).get(`${BASE}/${hook.id}/deliveries/${test.body.id}`);
  expect(one.body).toMatchObject({ id: test.body.id, state: 'delivered', log: [{ status: 200, duration_ms: expect.any(Number), response: '' }] });

  const replay = await ctx.as(admin).post(`${BASE}/${hook.id}/deliveries/${test.body.id}/replay`);
  expect(replay.status).toBe(202);
  expect(replay.body).toMatchObject({ replay_of: test.body.id, message_id: test.body.message_id, state: 'pending' });
  const again = await receiver().waitFor(5);
  expect(again[4].headers['webhook-id']).toBe(test.body.message_id);
  expect(again[4].body).toBe(got.body);

  const bad = await ctx.as(admin).get(`${BASE}/${hook.id}/deliveries?cursor=not-a-cursor`);
  expect([bad.status, bad.body.error?.fields?.[0]?.field]).toEqual([400, 'cursor']);
  expect((await ctx.as(admin).get(`${BASE}/${hook.id}/deliveries/dlv_nope`)).status).toBe(400);
  expect((await ctx.as(admin).get(`${BASE}/${hook.id}/deliveries/dlv_01JAAAAAAAAAAAAAAAAAAAAAAA`)).body.error.code).toBe('delivery_not_found');
});

it('refuses a test or a replay for a disabled webhook (409) and past the pending deliveries of the account (429 with Retry-After)', async () => {
  const hook = (await ctx.as(admin).post(BASE).send({ url: receiver().url(), events: ['*'] })).body;
  for (let i = 0; i < 50; i++) expect((await ctx.as(admin).post(`${BASE}/${hook.id}/test`)).status).toBe(202); // the worker is off: all stay pending
  const full = await ctx.as(admin).post(`${BASE}/${hook.id}/test`);
  expect([full.status, full.body.error?.code, full.headers['retry-after']]).toEqual([429, 'delivery_limit', '60']);
  await ctx.as(admin).put(`${BASE}/${hook.id}`).send({ enabled: false });
  const off = await ctx.as(admin).post(`${BASE}/${hook.id}/test`);
  expect([off.status, off.body.error?.code]).toEqual([409, 'webhook_disabled']);
  // disabling cancelled the pending ones
  const log = await ctx.as(admin).get(`${BASE}/${hook.id}/deliveries?page_size=100`);
  expect(new Set(log.body.map((d: { state: string }) => d.state))).toEqual(new Set(['cancelled']));
});

it('a write of an account whose webhooks listen to other events costs the commands it costs without webhooks', async () => {
  const al = (await ctx.as(admin).post('/dev/api/contacts').send(person('Al'))).body;
  const update = () => ctx.as(admin).put('/dev/api/contacts/edit/lead-score').send({ id: al.id, lead_score: 7 });
  const commands = async () => {
    const log = logCommands(ctx.connection);
    try {
      expect((await update()).status).toBe(200);
    } finally {
      log.stop();
    }
    return log.commands.map((c) => `${c.name} ${c.collection ?? ''}`);
  };
  await update(); // the sign-in and the subscriptions are cached
  const without = await commands();
  await ctx.as(admin).post(BASE).send({ url: receiver().url(), events: ['deal.*'] });
  // the first writes after the create read the account's webhooks again (the create is published
  // to every replica's cache, this one's included, within 1 s); then a write costs what it did
  let withOther = await commands();
  for (let i = 0; i < 40 && withOther.includes('find webhooks'); i++) withOther = await commands();
  expect(withOther).toEqual(without);
  expect(withOther.some((c) => c.startsWith('commitTransaction'))).toBe(false);
});
