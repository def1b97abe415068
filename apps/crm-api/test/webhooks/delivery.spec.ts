import { metricsRegistry } from '@lib/http';
import { freePort } from '@lib/testing';
import http from 'node:http';
import { Webhook } from 'standardwebhooks';
import { EVENT_NAMES, type EventName, type WebhookObject } from '../../src/webhooks/webhook-events';
import { eventually, testSettings, testWrites, useWebhookEngine } from './engine';
import { startReceiver, type Receiver } from './receiver';

const ACCOUNT = 7;
const headersOf = (r: { headers: http.IncomingHttpHeaders }) => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
});

describe('webhook delivery to a real receiver', () => {
  const engine = useWebhookEngine();
  let receiver: Receiver;
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(() => receiver.close());

  async function subscribed(events: string[] = ['*'], settings = testSettings(), url = receiver.url()) {
    const webhooks = engine.build(settings);
    const { webhook, secret } = await webhooks.service.create(engine.store(ACCOUNT), { url, events });
    webhooks.worker.start();
    return { webhooks, webhook, secret };
  }

  it('delivers every event type, each signed as Standard Webhooks verifies it, with the original body and event names', async () => {
    const { webhooks, secret } = await subscribed();
    const objects = [...new Set(EVENT_NAMES.map((name) => name.split('.')[0] as WebhookObject))];
    for (const [i, object] of objects.entries()) {
      const writes = testWrites(engine.connection, webhooks.recorder, object);
      await writes.create(ACCOUNT, 100 + i, `${object} one`);
      await writes.update(ACCOUNT, 100 + i, `${object} two`);
      await writes.remove(ACCOUNT, 100 + i);
    }
    const got = await receiver.waitFor(EVENT_NAMES.length);
    const verifier = new Webhook(secret);
    const bodies = got.map((r) => verifier.verify(r.body, headersOf(r)) as { eventName: string; eventData: { id: number; name: string } });
    const expectedName = (name: EventName) =>
      ({ 'contact.created': 'Contact is Created', 'contact.updated': 'Contact is Updated', 'contact.deleted': 'Contact is Deleted', 'deal.created': 'Opportunity is Created', 'deal.updated': 'Opportunity is Updated', 'deal.deleted': 'Opportunity is Deleted' })[name as string] ?? name;
    expect(bodies.map((b) => b.eventName).sort()).toEqual(EVENT_NAMES.map(expectedName).sort());
    expect(bodies.find((b) => b.eventName === 'Contact is Updated')).toEqual({ eventName: 'Contact is Updated', eventData: { id: 100, name: 'contact two', rev: 1 } });
    expect(bodies.find((b) => b.eventName === 'note.deleted')).toEqual({ eventName: 'note.deleted', eventData: { id: 103, name: 'note two', rev: 1 } });
    for (const r of got) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['webhook-id']).toMatch(/^msg_[0-9A-Z]{26}$/);
      expect(r.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    }
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(EVENT_NAMES.length);
    const stored = await eventually(async () => {
      const docs = await engine.deliveries();
      return docs.every((d) => d.state === 'delivered') && docs;
    });
    expect(stored).toHaveLength(EVENT_NAMES.length);
    // delivered records expire: the TTL index deletes each at its expires_at
    const indexes = await engine.connection.collection('webhook_deliveries').indexes();
    expect(indexes).toContainEqual(expect.objectContaining({ key: { expires_at: 1 }, expireAfterSeconds: 0 }));
    const metrics = await metricsRegistry.metrics();
    expect(Number(/^webhook_deliveries_total\{outcome="delivered"\} (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(EVENT_NAMES.length);
    expect(metrics).toMatch(/^webhook_attempts_total\{result="2xx"\} \d+$/m);
    expect(metrics).toMatch(/^webhook_delivery_lag_seconds_count \d+$/m);
    expect(metrics).toMatch(/^webhook_outbox_depth 0$/m);
    for (const doc of stored) {
      expect(doc).toMatchObject({ state: 'delivered', attempts: 1, account: ACCOUNT, reason: null });
      expect(doc.log).toEqual([expect.objectContaining({ status: 200, error: null })]);
      expect(doc.expires_at!.getTime()).toBeGreaterThan(Date.now() + testSettings().retentionMs - 60_000);
    }
  });

  it('retries a receiver that is down, then delivers with the same webhook-id and a new timestamp and signature', async () => {
    const port = await freePort();
    const { webhooks, webhook, secret } = await subscribed(['contact.created'], testSettings({ retry: { delaysMs: [150, 150, 150, 150], jitter: 0, retryAfterMinMs: 10, retryAfterMaxMs: 1_000 } }), `http://127.0.0.1:${port}/hook`);
    await testWrites(engine.connection, webhooks.recorder).create(ACCOUNT, 1, 'down');
    await eventually(async () => (await engine.deliveries())[0]?.attempts === 2, 10_000, 'two failed attempts');
    // the receiver comes up on that port: 500 once, then 200
    const late = await new Promise<http.Server>((resolve) => {
      let calls = 0;
      const server = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c));
        req.on('end', () => {
          calls++;
          seen.push({ headers: req.headers, body });
          res.writeHead(calls === 1 ? 500 : 200).end(calls === 1 ? 'not yet' : 'ok');
        });
      });
      server.listen(port, '127.0.0.1', () => resolve(server));
    });
    const seen: { headers: http.IncomingHttpHeaders; body: string }[] = [];
    try {
      const [delivery] = await eventually(async () => {
        const docs = await engine.deliveries();
        return docs[0]?.state === 'delivered' && docs;
      });
      expect(delivery.attempts).toBe(4);
      expect(delivery.log.map((a) => a.status)).toEqual([null, null, 500, 200]);
      expect(delivery.log[0].error).toMatch(/cannot connect: ECONNREFUSED/);
      expect(delivery.log[2].response).toBe('not yet');
      expect(seen.map((r) => r.headers['webhook-id'])).toEqual([delivery.event_id, delivery.event_id]);
      expect(seen[0].body).toBe(seen[1].body);
      const verifier = new Webhook(secret);
      for (const r of seen) expect(verifier.verify(r.body, headersOf(r))).toEqual({ eventName: 'Contact is Created', eventData: { id: 1, name: 'down', rev: 0 } });
      expect((await engine.webhook(webhook._id))?.enabled).toBe(true);
    } finally {
      late.closeAllConnections();
      await new Promise((resolve) => late.close(resolve));
    }
  });

  it('disables the webhook on a 410, cancels its other pending deliveries and records nothing more for it', async () => {
    receiver.answer(() => ({ status: 410 }));
    const { webhooks, webhook } = await subscribed(['contact.*']);
    const writes = testWrites(engine.connection, webhooks.recorder);
    await writes.create(ACCOUNT, 1, 'a');
    await eventually(async () => (await engine.webhook(webhook._id))?.enabled === false, 10_000, 'the webhook disabled');
    const stored = await engine.webhook(webhook._id);
    expect(stored).toMatchObject({ enabled: false, disabled_reason: 'the receiver answered 410 Gone' });
    const [delivery] = await engine.deliveries();
    expect(delivery).toMatchObject({ state: 'failed', attempts: 1, reason: 'the receiver answered 410 Gone' });
    await writes.update(ACCOUNT, 1, 'b');
    expect(await engine.deliveries()).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);
  });

  it('waits what a 429 or 503 says in Retry-After instead of the schedule', async () => {
    receiver.answer((_r, i) => (i === 0 ? { status: 429, headers: { 'Retry-After': '2' } } : i === 1 ? { status: 503, headers: { 'Retry-After': 'soon' } } : {}));
    const { webhooks } = await subscribed(['contact.created'], testSettings({ retry: { delaysMs: [100, 100, 100], jitter: 0, retryAfterMinMs: 10, retryAfterMaxMs: 60_000 } }));
    await testWrites(engine.connection, webhooks.recorder).create(ACCOUNT, 1, 'busy');
    const [first] = await eventually(async () => {
      const docs = await engine.deliveries();
      return docs[0]?.attempts === 1 && docs;
    });
    // Retry-After: 2 → the next attempt 2 s after the first, not the schedule's 100 ms
    expect(first.next_attempt_at!.getTime() - first.log[0].at.getTime()).toBeGreaterThanOrEqual(2_000 - 50);
    const [done] = await eventually(async () => {
      const docs = await engine.deliveries();
      return docs[0]?.state === 'delivered' && docs;
    });
    expect(done.log.map((a) => a.status)).toEqual([429, 503, 200]);
    // an unreadable Retry-After: the schedule's wait
    expect(done.log[2].at.getTime() - done.log[1].at.getTime()).toBeLessThan(2_000);
  });

  it('gives up an attempt after the timeout, reads at most the answer limit, and never follows a redirect', async () => {
    receiver.answer((r) => {
      if (r.path === '/slow') return { hang: true };
      if (r.path === '/moved') return { status: 302, headers: { location: receiver.url('/target') } };
      return {};
    });
    const settings = testSettings({ timeoutMs: 400, retry: { delaysMs: [], jitter: 0, retryAfterMinMs: 10, retryAfterMaxMs: 100 } });
    const slow = await subscribed(['contact.created'], settings, receiver.url('/slow'));
    const moved = await slow.webhooks.service.create(engine.store(ACCOUNT), { url: receiver.url('/moved'), events: ['contact.created'] });
    // an answer that never ends: delivered once the first 64 kB are read
    const endless = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const pump = () => {
        while (res.write(chunk));
        res.once('drain', pump);
      };
      pump();
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    const endlessUrl = `http://127.0.0.1:${(endless.address() as { port: number }).port}/`;
    try {
      const big = await slow.webhooks.service.create(engine.store(ACCOUNT), { url: endlessUrl, events: ['contact.created'] });
      await testWrites(engine.connection, slow.webhooks.recorder).create(ACCOUNT, 1, 'x');
      const docs = await eventually(async () => {
        const all = await engine.deliveries();
        return all.length === 3 && all.every((d) => d.state !== 'pending') && all;
      });
      const of = (id: number) => docs.find((d) => d.webhook === id)!;
      expect(of(slow.webhook._id)).toMatchObject({ state: 'failed', attempts: 1 });
      expect(of(slow.webhook._id).log[0]).toMatchObject({ status: null, error: 'no complete answer within 400 ms' });
      expect(of(moved.webhook._id).log[0]).toMatchObject({ status: 302, error: null });
      expect(of(moved.webhook._id).state).toBe('failed');
      expect(receiver.received.filter((r) => r.path === '/target')).toHaveLength(0);
      expect(of(big.webhook._id)).toMatchObject({ state: 'delivered' });
      expect(of(big.webhook._id).log[0].response).toBe('x'.repeat(testSettings().storedResponseBytes));
    } finally {
      endless.closeAllConnections();
      await new Promise((resolve) => endless.close(resolve));
    }
  });

  it('disables the webhook, with the reason, once a delivery failed for the whole schedule', async () => {
    receiver.answer(() => ({ status: 500, body: 'broken' }));
    const { webhooks, webhook } = await subscribed(['contact.*'], testSettings({ retry: { delaysMs: [50, 50, 50], jitter: 0, retryAfterMinMs: 10, retryAfterMaxMs: 100 } }));
    const writes = testWrites(engine.connection, webhooks.recorder);
    await writes.create(ACCOUNT, 1, 'a');
    await writes.update(ACCOUNT, 1, 'b'); // waits behind the first: cancelled when the webhook is disabled
    await eventually(async () => (await engine.webhook(webhook._id))?.enabled === false, 10_000, 'the webhook disabled');
    expect((await engine.webhook(webhook._id))?.disabled_reason).toMatch(/^deliveries failed for the whole retry schedule \(4 attempts over 0 s; last: HTTP 500\)$/);
    const [first, second] = await engine.deliveries();
    expect(first).toMatchObject({ state: 'failed', attempts: 4, reason: 'no 2xx answer after 4 attempts (last: HTTP 500)' });
    expect(first.log.map((a) => a.response)).toEqual(['broken', 'broken', 'broken', 'broken']);
    expect(second).toMatchObject({ state: 'cancelled', attempts: 0 });
    expect(second.reason).toMatch(/^webhook disabled: deliveries failed/);
    expect(receiver.received).toHaveLength(4);
  });

  it('sends the events of one resource in the order their changes were committed, an update never before its create', async () => {
    // each create fails once, so the updates of its record queue behind it
    const failed = new Set<string>();
    const answered: { status: number; id: number; rev: number }[] = [];
    receiver.answer((r) => {
      const { id, rev } = JSON.parse(r.body).eventData as { id: number; rev: number };
      const status = rev === 0 && !failed.has(r.headers['webhook-id'] as string) ? 500 : 200;
      if (status === 500) failed.add(r.headers['webhook-id'] as string);
      answered.push({ status, id, rev });
      return { status };
    });
    const { webhooks } = await subscribed(['contact.*']);
    const other = engine.build(); // a second process writing to the same records
    other.worker.start();
    const writers = [testWrites(engine.connection, webhooks.recorder), testWrites(engine.connection, other.recorder)];
    for (const id of [1, 2, 3]) {
      await writers[0].create(ACCOUNT, id, 'v0');
      // six updates of one record at once, from both processes: their order is the order they commit in
      await Promise.all(Array.from({ length: 6 }, (_, i) => writers[i % 2].update(ACCOUNT, id, `v${i + 1}`)));
    }
    await receiver.waitFor(3 * 7 + 3);
    await eventually(async () => (await engine.deliveries()).every((d) => d.state === 'delivered'));
    for (const id of [1, 2, 3]) {
      const revs = answered.filter((a) => a.id === id && a.status === 200).map((a) => a.rev);
      expect(revs).toEqual([0, 1, 2, 3, 4, 5, 6]);
      const seqs = (await engine.deliveries({ resource: `contact:${id}` })).sort((a, b) => a.seq - b.seq).map((d) => JSON.parse(d.body).eventData.rev);
      expect(seqs).toEqual([0, 1, 2, 3, 4, 5, 6]);
    }
  });

  it("does not let one webhook's backlog, all its partitions busy elsewhere, hide another webhook's deliveries", async () => {
    receiver.answer((r) => (r.path === '/slow' ? { hang: true } : {}));
    // attempts and leases far longer than the test: however slow the machine, the slow webhook's 16
    // requests stay open and its partitions held, so it never sends more
    const patient = () => engine.build(testSettings({ timeoutMs: 120_000, leaseMs: 120_000 }));
    const workers = [patient(), patient(), patient()];
    const slow = await workers[0].service.create(engine.store(ACCOUNT), { url: receiver.url('/slow'), events: ['contact.*'] });
    const slowWrites = testWrites(engine.connection, workers[0].recorder);
    for (let id = 1; id <= 80; id++) await slowWrites.create(ACCOUNT, id, 'x');
    for (const w of workers.slice(0, 2)) w.worker.start();
    await receiver.waitFor(16, (r) => r.path === '/slow'); // every partition of the slow webhook held
    await workers[0].service.create(engine.store(ACCOUNT + 1), { url: receiver.url('/fast'), events: ['deal.*'] });
    await testWrites(engine.connection, workers[0].recorder, 'deal').create(ACCOUNT + 1, 1001, 'y');
    workers[2].worker.start();
    await receiver.waitFor(1, (r) => r.path === '/fast');
    expect(receiver.received.filter((r) => r.path === '/slow')).toHaveLength(16);
    receiver.release();
    expect(slow.webhook.enabled).toBe(true);
  });

  it('disables a webhook whose pending deliveries pass the outbox cap, cancelling them', async () => {
    receiver.answer(() => ({ status: 503 }));
    const settings = testSettings({ limits: { webhooksPerAccount: 5, pendingPerAccount: 100, outboxCap: 5 }, retry: { delaysMs: [60_000], jitter: 0, retryAfterMinMs: 10, retryAfterMaxMs: 100 } });
    const { webhooks, webhook } = await subscribed(['contact.created'], settings);
    const writes = testWrites(engine.connection, webhooks.recorder);
    for (let id = 1; id <= 8; id++) {
      await writes.create(ACCOUNT, id, 'x');
      await new Promise((resolve) => setTimeout(resolve, id === 6 ? 1_100 : 0)); // the cap is counted at most once a second
    }
    await eventually(async () => (await engine.webhook(webhook._id))?.enabled === false, 10_000, 'the webhook disabled');
    expect((await engine.webhook(webhook._id))?.disabled_reason).toBe('more than 5 deliveries were waiting (the receiver has not accepted them for too long)');
    // the pending deliveries are cancelled right after the webhook is disabled (a second write): wait for it
    await eventually(async () => (await engine.deliveries()).every((d) => d.state !== 'pending'), 10_000, 'no delivery pending');
    const docs = await engine.deliveries();
    expect(docs.filter((d) => d.state === 'pending')).toHaveLength(0);
    expect(docs.filter((d) => d.state === 'cancelled').length).toBeGreaterThanOrEqual(5);
  });
});
