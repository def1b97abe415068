import type { AddressInfo } from 'node:net';
import { receiverServer, type Arrival } from './receiver-server';
import { lagOf, percentile, webhookTables } from './webhooks';

const figures = (requestsPerSecond: number, cpuMsPerRequest: number) => ({ requestsPerSecond, cpuMsPerRequest, p50Ms: 10, p99Ms: 50, requests: 500, failures: 0, mainThreadCpuMsPerRequest: cpuMsPerRequest, fromUs: 0, toUs: 1 });

describe('the webhook row', () => {
  it('percentiles are nearest-rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i); // 100…1, unsorted
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([3, 1, 2], 0)).toBe(1);
    expect(percentile([], 50)).toBeNaN();
  });

  it('lag is each acknowledged write to the first arrival of its record, missing ones counted', () => {
    const acks = new Map([
      [1, 1_000],
      [2, 1_010],
      [3, 1_020],
    ]);
    const arrivals: Arrival[] = [
      { message: 'msg_a', record: 1, at: 1_005 },
      { message: 'msg_b', record: 2, at: 1_040 },
      { message: 'msg_c', record: 2, at: 2_000 }, // a later message about the same record: not its first arrival
      { message: 'msg_d', record: 99, at: 1_050 }, // a write not measured (the warm-up)
      { message: 'msg_e', at: 1_060 }, // no record id
    ];
    expect(lagOf(acks, arrivals)).toEqual({ matched: 2, missing: 1, p50Ms: 5, p99Ms: 30, maxMs: 30 });
    expect(lagOf(new Map(), arrivals)).toEqual({ matched: 0, missing: 0, p50Ms: NaN, p99Ms: NaN, maxMs: NaN });
  });

  it('prints the writes with the ratio, the lags and the delivery rate', () => {
    const lag = { matched: 480, missing: 0, p50Ms: 12.34, p99Ms: 45.6, maxMs: 60 };
    const tables = webhookTables({ plain: figures(100, 2), hooked: figures(80, 3), hookedCpuWithDeliveryMs: 4, lag, idleCpuMsPerSecond: 8 }, { backlog: 300, delivered: 300, deliveriesPerSecond: 150, cpuMsPerDelivery: 1.5, pacedLag: lag, paced: 20, pacedPerSecond: 5.04 }, 10);
    expect(tables).toContain('| account without a webhook | 100 | 10 | 50 | 2.00 | | 0 |');
    expect(tables).toContain('| account with one webhook on contact.* | 80 | 10 | 50 | 3.00 | 4.00 | 0 |');
    expect(tables).toContain('| with / without | 0.80 | | | 1.50 | 2.00 | |');
    expect(tables).toContain("The app's CPU while idle: 8.0 ms a second (in every figure per request; at 80 req/s, 0.10 ms of the hooked write's).");
    expect(tables).toContain("| under the row's load (10 connections of writes) | 12.3 | 45.6 | 60.0 | 480 | 0 |");
    expect(tables).toContain('| one write at a time, at most 20/s (5.0/s reached) | 12.3 | 45.6 | 60.0 | 480 | 0 |');
    expect(tables).toContain('| webhook.test backlog released at once to a receiver answering 200 | 300 | 300 | 150 | 1.50 |');
  });
});

describe('the webhook receiver', () => {
  const server = receiverServer();
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const deliver = (message: string, body: string) => fetch(`${base}/hook`, { method: 'POST', headers: { 'webhook-id': message, 'content-type': 'application/json' }, body });
  const arrivals = async () => (await (await fetch(`${base}/_bench/arrivals`)).json()) as Arrival[];

  it('answers 200 at once and records the first attempt of each message with its record', async () => {
    const before = Date.now();
    expect((await deliver('msg_1', JSON.stringify({ eventName: 'Contact is Created', eventData: { id: 42 } }))).status).toBe(200);
    expect((await deliver('msg_1', JSON.stringify({ eventName: 'Contact is Created', eventData: { id: 42 } }))).status).toBe(200); // a retry
    expect((await deliver('msg_2', 'not json')).status).toBe(200);
    const recorded = await arrivals();
    expect(recorded.map(({ message, record }) => ({ message, record }))).toEqual([{ message: 'msg_1', record: 42 }, { message: 'msg_2' }]);
    expect(recorded[0].at).toBeGreaterThanOrEqual(before - 1);
    expect(recorded[0].at).toBeLessThanOrEqual(Date.now() + 1);
    expect((await fetch(`${base}/_bench/reset`, { method: 'POST' })).status).toBe(204);
    expect(await arrivals()).toEqual([]);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  });

  it('holds the answers until released, recording the arrivals meanwhile', async () => {
    await fetch(`${base}/_bench/hold`, { method: 'POST' });
    let answered = false;
    const pending = deliver('msg_3', JSON.stringify({ eventData: { id: 7 } })).then((res) => {
      answered = true;
      return res.status;
    });
    while ((await arrivals()).length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(answered).toBe(false);
    expect(await (await fetch(`${base}/_bench/release`, { method: 'POST' })).json()).toEqual({ released: 1 });
    expect(await pending).toBe(200);
    expect((await deliver('msg_4', '{}')).status).toBe(200); // no longer held
  });
});
