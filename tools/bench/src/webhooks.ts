import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { BenchRequest } from './endpoints';
import { measure, type Figures, type MeasureOptions } from './measure';
import { cpuMs, startNode, type Service } from './processes';
import { nowMs, type Arrival } from './receiver-server';

/**
 * The webhook row (issue 24): a contact write for an account with one webhook on `contact.*`
 * against the same write for an account without one, and what the deliverer does with the events
 * (deliveries/s per replica, lag from a write's acknowledgement to its delivery's first attempt),
 * measured against a receiver the bench runs (webhook-receiver.ts).
 */

const log = (line: string) => console.error(`bench | ${line}`);
const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The crm variable that lets deliveries reach the receiver (plain http on loopback). */
export const RECEIVER_HOST = '127.0.0.1';

/** The value at percentile `p` (0–100) of `values`, nearest rank; NaN when there are none. */
export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];
}

export interface Lag {
  /** Writes whose delivery arrived. */
  matched: number;
  /** Writes acknowledged whose delivery never arrived (within the wait). */
  missing: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * Lag of each acknowledged write (record id → when its answer came, epoch ms) to the first
 * attempt of its delivery (the receiver's arrival of that record's event).
 */
export function lagOf(acks: ReadonlyMap<number, number>, arrivals: readonly Arrival[]): Lag {
  const arrived = new Map<number, number>();
  for (const { record, at } of arrivals) if (record !== undefined && !arrived.has(record)) arrived.set(record, at);
  const lags: number[] = [];
  for (const [record, ackAt] of acks) {
    const at = arrived.get(record);
    if (at !== undefined) lags.push(at - ackAt);
  }
  return { matched: lags.length, missing: acks.size - lags.length, p50Ms: percentile(lags, 50), p99Ms: percentile(lags, 99), maxMs: lags.length ? Math.max(...lags) : NaN };
}

/** The bench's side of the receiver process. */
export class Receiver {
  constructor(
    readonly service: Service,
    /** Records acknowledged by the webhook row's writes: id → epoch ms of the answer. */
    readonly acks = new Map<number, number>(),
  ) {}

  get url(): string {
    return `http://${RECEIVER_HOST}:${this.service.port}/hook`;
  }

  /** For BenchRequest.onResponse: records when each created contact was acknowledged. */
  readonly onResponse = (status: number, body: string): void => {
    if (status < 200 || status > 299) return;
    const at = nowMs();
    try {
      const id = (JSON.parse(body) as { id?: unknown }).id;
      if (typeof id === 'number') this.acks.set(id, at);
    } catch {
      // an answer that is not the contact: nothing to match
    }
  };

  private async call(method: 'GET' | 'POST', what: string): Promise<string> {
    const res = await fetch(`http://${RECEIVER_HOST}:${this.service.port}/_bench/${what}`, { method });
    if (!res.ok) throw new Error(`receiver ${what} answered ${res.status}`);
    return res.text();
  }

  arrivals = async (): Promise<Arrival[]> => JSON.parse(await this.call('GET', 'arrivals')) as Arrival[];
  /** Forgets the arrivals and the acknowledgements. */
  reset = async (): Promise<void> => {
    this.acks.clear();
    await this.call('POST', 'reset');
  };
  hold = async (): Promise<void> => void (await this.call('POST', 'hold'));
  release = async (): Promise<number> => (JSON.parse(await this.call('POST', 'release')) as { released: number }).released;

  /** Waits until every acknowledged write's delivery has arrived (or `timeoutMs` passed); the arrivals. */
  async drained(timeoutMs = 30_000): Promise<Arrival[]> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const arrivals = await this.arrivals();
      const records = new Set(arrivals.map((a) => a.record));
      const missing = [...this.acks.keys()].filter((id) => !records.has(id)).length;
      if (!missing) return arrivals;
      if (Date.now() > until) {
        log(`webhooks: ${missing} deliveries had not arrived after ${timeoutMs} ms`);
        return arrivals;
      }
      await sleep(100);
    }
  }
}

export async function startReceiver(script: string): Promise<Receiver> {
  return new Receiver(await startNode('webhook receiver', script, {}));
}

/** A crm user of a new account (`npm run crm:admin -- add-user`), as `Basic` credentials. */
async function crmAccount(root: string, mongoUrl: string, domain: string, email: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(root, 'dist', 'apps', 'crm-api', 'admin.js'), 'add-user', '--domain', domain, '--email', email, '--admin'], {
    env: { ...process.env, MONGO_URL: mongoUrl },
  });
  const key = /API key: (\S+)/.exec(stdout)?.[1];
  if (!key) throw new Error(`crm admin add-user printed no API key: ${stdout}`);
  return `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;
}

/**
 * The webhook row's two accounts, made alike (new, empty): `hooked` with one webhook on
 * `contact.*` to the receiver, `plain` without.
 */
export interface WebhookAccounts {
  hooked: string;
  plain: string;
  /** The hooked account's webhook. */
  webhookId: number;
}

export async function webhookAccounts(root: string, mongoUrl: string, crmPort: number, receiver: Receiver): Promise<WebhookAccounts> {
  const hooked = await crmAccount(root, mongoUrl, 'bench-hooked', 'owner@bench-hooked.test');
  const plain = await crmAccount(root, mongoUrl, 'bench-plain', 'owner@bench-plain.test');
  const res = await fetch(`http://127.0.0.1:${crmPort}/dev/api/webhooks`, {
    method: 'POST',
    headers: { Authorization: hooked, 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ url: receiver.url, events: ['contact.*'], description: 'bench receiver' }),
  });
  if (!res.ok) throw new Error(`creating the bench webhook answered ${res.status}: ${await res.text()}`);
  const { id } = (await res.json()) as { id: number };
  // every replica's cache of who listens follows the revocation log within a second
  await sleep(1_100);
  return { hooked, plain, webhookId: id };
}

const IDLE_MS = 3_000;

export interface WebhookWrite {
  /** The write for the account with the webhook (the row's `ours`). */
  hooked: Figures;
  /** The same write for the account without one. */
  plain: Figures;
  /** The app's CPU per hooked write from the start of the measured run until its last delivery arrived. */
  hookedCpuWithDeliveryMs: number;
  /** Lag of the measured run's writes (the row's load). */
  lag: Lag;
  /** The app's CPU while idle (its deliverer polls, timers, the memory probe), ms a second: part of every figure per request. */
  idleCpuMsPerSecond: number;
}

/**
 * The hooked write measured as `measure` does, its warm-up's deliveries drained first; then the
 * CPU until the measured writes' deliveries have all arrived, and their lag.
 */
export async function measureHookedWrite(app: Service, receiver: Receiver, request: BenchRequest, options: MeasureOptions): Promise<Omit<WebhookWrite, 'plain'>> {
  await receiver.reset();
  const idleFrom = cpuMs(app.pid);
  await sleep(IDLE_MS);
  const idleCpuMsPerSecond = ((cpuMs(app.pid) - idleFrom) * 1000) / IDLE_MS;
  if (options.warmupSeconds > 0) await measure(app.port, app.pid, request, { ...options, durationSeconds: options.warmupSeconds, warmupSeconds: 0 });
  await receiver.drained();
  await receiver.reset();
  const cpuBefore = cpuMs(app.pid);
  const hooked = await measure(app.port, app.pid, request, { ...options, warmupSeconds: 0 });
  const arrivals = await receiver.drained();
  const cpu = cpuMs(app.pid) - cpuBefore;
  return { hooked, hookedCpuWithDeliveryMs: hooked.requests ? cpu / hooked.requests : NaN, lag: lagOf(receiver.acks, arrivals), idleCpuMsPerSecond };
}

export interface Delivery {
  /** Deliveries waiting when the receiver let them through (webhook.test ones: the test route). */
  backlog: number;
  /** Of them, arrived after the release. */
  delivered: number;
  deliveriesPerSecond: number;
  /** The app's CPU from the release until the last arrival, per delivery. */
  cpuMsPerDelivery: number;
  /** Hooked writes one at a time (at most `paced` a second): lag from each acknowledgement to its first attempt. */
  pacedLag: Lag;
  paced: number;
  /** The rate those writes reached. */
  pacedPerSecond: number;
}

/**
 * Deliveries/s of the one replica. The receiver holds its answers (the deliverer's slots wait on
 * the first ones) while the webhook's test route queues up to `backlog` webhook.test deliveries
 * for at most `holdMs` (well within the deliverer's 10 s answer timeout: the held attempts must not
 * fail); then it answers everything at once, and the rate is the deliveries arriving after the
 * release over the time to the last. (The test route, not contact writes, builds the backlog: on
 * the embedded database a hooked write takes ~200 ms, its transaction holding the write lock.)
 * Then the lag at a modest rate: hooked writes one at a time, at most `paced` a second.
 */
export async function measureDelivery(app: Service, receiver: Receiver, hook: WebhookAccounts, request: BenchRequest, backlog = 400, holdMs = 6_000, paced = 20, pacedWrites = 60): Promise<Delivery> {
  await receiver.reset();
  await receiver.hold();
  const holdUntil = Date.now() + holdMs;
  let queued = 0;
  let refused = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < backlog && Date.now() < holdUntil) {
        next++;
        const res = await fetch(`http://127.0.0.1:${app.port}/dev/api/webhooks/${hook.webhookId}/test`, { method: 'POST', headers: { Authorization: hook.hooked, Accept: 'application/json' } });
        await res.arrayBuffer();
        if (res.status === 202) queued++;
        else refused++;
      }
    }),
  );
  if (refused) log(`webhooks: the test route refused ${refused} deliveries`);
  const cpuBefore = cpuMs(app.pid);
  const released = nowMs();
  await receiver.release();
  let arrivals = await receiver.arrivals();
  for (const until = Date.now() + 60_000; arrivals.length < queued && Date.now() < until; arrivals = await receiver.arrivals()) await sleep(50);
  const cpu = cpuMs(app.pid) - cpuBefore;
  const after = arrivals.filter((a) => a.at >= released);
  const last = Math.max(...after.map((a) => a.at));
  log(`webhooks: ${queued} test deliveries queued while held, ${after.length} arrived after the release in ${fixed(last - released, 0)} ms (${arrivals.length} in all)`);

  await receiver.reset();
  const body = request.body ?? (() => '{}');
  const pacedStarted = Date.now();
  for (let n = 0; n < pacedWrites; n++) {
    const started = Date.now();
    const res = await fetch(`http://127.0.0.1:${app.port}${request.path}`, { method: request.method, headers: request.headers, body: body(1_000_000_000 + n) });
    receiver.onResponse(res.status, await res.text());
    await sleep(Math.max(0, 1000 / paced - (Date.now() - started)));
  }
  const pacedPerSecond = pacedWrites / ((Date.now() - pacedStarted) / 1000);
  const pacedLag = lagOf(receiver.acks, await receiver.drained());
  return {
    backlog: queued,
    delivered: after.length,
    deliveriesPerSecond: after.length / ((last - released) / 1000),
    cpuMsPerDelivery: after.length ? cpu / after.length : NaN,
    pacedLag,
    paced,
    pacedPerSecond,
  };
}

const lagCells = (lag: Lag) => `${fixed(lag.p50Ms, 1)} | ${fixed(lag.p99Ms, 1)} | ${fixed(lag.maxMs, 1)} | ${lag.matched} | ${lag.missing}`;

/** The webhook figures as two Markdown tables (what docs/BENCHMARKS.md holds). */
export function webhookTables(write: WebhookWrite, delivery: Delivery | undefined, connections: number): string {
  const { hooked, plain } = write;
  const writes = [
    '| crm POST contact | req/s | p50 ms | p99 ms | CPU ms/req (run) | CPU ms/req to the last delivery | failures |',
    '|---|---:|---:|---:|---:|---:|---:|',
    `| account without a webhook | ${fixed(plain.requestsPerSecond, 0)} | ${plain.p50Ms} | ${plain.p99Ms} | ${fixed(plain.cpuMsPerRequest, 2)} | | ${plain.failures} |`,
    `| account with one webhook on contact.* | ${fixed(hooked.requestsPerSecond, 0)} | ${hooked.p50Ms} | ${hooked.p99Ms} | ${fixed(hooked.cpuMsPerRequest, 2)} | ${fixed(write.hookedCpuWithDeliveryMs, 2)} | ${hooked.failures} |`,
    `| with / without | ${fixed(hooked.requestsPerSecond / plain.requestsPerSecond, 2)} | | | ${fixed(hooked.cpuMsPerRequest / plain.cpuMsPerRequest, 2)} | ${fixed(write.hookedCpuWithDeliveryMs / plain.cpuMsPerRequest, 2)} | |`,
  ];
  const idle = `The app's CPU while idle: ${fixed(write.idleCpuMsPerSecond, 1)} ms a second (in every figure per request; at ${fixed(hooked.requestsPerSecond, 0)} req/s, ${fixed(write.idleCpuMsPerSecond / hooked.requestsPerSecond, 2)} ms of the hooked write's).`;
  const lags = [
    '| lag, write acknowledged → first attempt arrived | p50 ms | p99 ms | max ms | deliveries | missing |',
    '|---|---:|---:|---:|---:|---:|',
    `| under the row's load (${connections} ${connections === 1 ? 'connection' : 'connections'} of writes) | ${lagCells(write.lag)} |`,
    ...(delivery ? [`| one write at a time, at most ${delivery.paced}/s (${fixed(delivery.pacedPerSecond, 1)}/s reached) | ${lagCells(delivery.pacedLag)} |`] : []),
  ];
  const throughput = delivery
    ? [
        '| delivery, one replica (WEBHOOK_CONCURRENCY 8) | backlog | delivered | deliveries/s | CPU ms/delivery |',
        '|---|---:|---:|---:|---:|',
        `| webhook.test backlog released at once to a receiver answering 200 | ${delivery.backlog} | ${delivery.delivered} | ${fixed(delivery.deliveriesPerSecond, 0)} | ${fixed(delivery.cpuMsPerDelivery, 2)} |`,
      ]
    : [];
  return [writes.join('\n'), idle, lags.join('\n'), ...(throughput.length ? [throughput.join('\n')] : [])].join('\n\n');
}
