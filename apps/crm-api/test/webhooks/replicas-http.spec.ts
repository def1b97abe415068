import { REVOCATION_BOUND_MS } from '@lib/mongo';
import { useReplicas } from '@lib/testing';
import { Webhook } from 'standardwebhooks';
import { crmData } from '../../src/wiring';
import { person } from '../setup-app';
import { startReceiver, type Receiver } from './receiver';

// Three crm-api processes on one database, each recording the events of the writes it serves and
// running the delivery worker.
const replicas = useReplicas({
  entry: 'apps/crm-api/src/main.ts',
  replicas: 3,
  env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_POLL_MS: '100', WEBHOOK_LEASE_MS: '2000' },
});
const RECORDS = 6;

describe('webhooks on three replicas, through the HTTP API', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  it('a webhook created on one replica receives the changes written on every replica, each once, each record in order, signed', async () => {
    const { apiKey } = await crmData(replicas.db.connection).accounts.addUser({ domain: 'acme', email: 'ada@acme.test', admin: true });
    const as = (i: number) => {
      const agent = replicas.replica(i);
      const auth = <T extends { auth(u: string, p: string): T; set(k: string, v: string): T }>(test: T) => test.auth('ada@acme.test', apiKey).set('Accept', 'application/json');
      return {
        post: (path: string) => auth(agent.post(path)),
        put: (path: string) => auth(agent.put(path)),
        delete: (path: string) => auth(agent.delete(path)),
      };
    };
    const created = await as(0).post('/dev/api/webhooks').send({ url: receiver.url(), events: ['contact.*'] });
    expect(created.status).toBe(200);
    // every replica records for it from REVOCATION_BOUND_MS (1 s) after its creation was acknowledged (README "Webhooks")
    await new Promise((resolve) => setTimeout(resolve, REVOCATION_BOUND_MS));

    const ids: number[] = [];
    for (let n = 0; n < RECORDS; n++) {
      const res = await as(n % 3).post('/dev/api/contacts').send(person(`P${n}`));
      expect(res.status).toBe(200);
      ids.push(res.body.id);
    }
    for (const [n, id] of ids.entries()) expect((await as((n + 1) % 3).put('/dev/api/contacts/edit/lead-score').send({ id, lead_score: n + 1 })).status).toBe(200);
    for (const [n, id] of ids.entries()) expect((await as((n + 2) % 3).delete(`/dev/api/contacts/${id}`)).status).toBe(204);

    const got = await receiver.waitFor(RECORDS * 3, undefined, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 500)); // nothing more may come
    expect(receiver.received).toHaveLength(RECORDS * 3);
    const verifier = new Webhook(created.body.secret);
    const events = got.map((r) => ({
      messageId: String(r.headers['webhook-id']),
      ...(verifier.verify(r.body, { 'webhook-id': String(r.headers['webhook-id']), 'webhook-timestamp': String(r.headers['webhook-timestamp']), 'webhook-signature': String(r.headers['webhook-signature']) }) as {
        eventName: string;
        eventData: { id: number; lead_score: number };
      }),
    }));
    // once each: no webhook-id twice
    expect(new Set(events.map((e) => e.messageId)).size).toBe(RECORDS * 3);
    for (const [n, id] of ids.entries()) {
      expect(events.filter((e) => e.eventData.id === id).map((e) => [e.eventName, e.eventData.lead_score])).toEqual([
        ['Contact is Created', 0],
        ['Contact is Updated', n + 1],
        ['Contact is Deleted', n + 1],
      ]);
    }
  }, 60_000);
});
