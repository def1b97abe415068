import { defineRoute } from '@lib/routing';
import { listenLoopback, sendRaw } from '@lib/testing';
import { z } from '@lib/validation';
import http from 'node:http';
import { buildServiceApp } from './build-app';
import { metricsRegistry } from './metrics';
import { ADMISSION_MARGIN_MS } from './request-deadline';
import { testAppOptions } from './test-app.fixture';

const BOUND_MS = 400;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Routes whose work outlasts the bound: one answers late, one fails late (as a database error after a stall would). */
let lateAnswers = 0;
const late = defineRoute({
  method: 'get',
  path: '/late',
  auth: 'public',
  summary: 'Answers after twice the bound',
  responses: { 200: { description: 'Late', schema: z.object({ ok: z.boolean() }) } },
  handler: async () => {
    await sleep(2 * BOUND_MS);
    lateAnswers++;
    return { status: 200, body: { ok: true } };
  },
});
const lateFailure = defineRoute({
  method: 'get',
  path: '/late-failure',
  auth: 'public',
  summary: 'Fails after twice the bound',
  responses: { 200: { description: 'Never', schema: z.object({ ok: z.boolean() }) } },
  handler: async () => {
    await sleep(2 * BOUND_MS);
    throw new Error('the database answered at last: with an error');
  },
});
let slowAuthHandled = 0;
const slowAuth = defineRoute({
  method: 'post',
  path: '/slow-auth',
  auth: 'public',
  before: [(_req, _res, next) => void setTimeout(next, 2 * BOUND_MS)],
  summary: 'Its authentication outlasts the bound',
  responses: { 201: { description: 'Never in time', schema: z.object({ ok: z.boolean() }) } },
  handler: () => {
    slowAuthHandled++;
    return { status: 201, body: { ok: true } };
  },
});
const quick = defineRoute({
  method: 'post',
  path: '/quick',
  auth: 'public',
  summary: 'Answers the body at once',
  request: { body: z.strictObject({ name: z.string() }) },
  responses: { 201: { description: 'Taken', schema: z.object({ name: z.string() }) } },
  handler: ({ body }) => ({ status: 201, body }),
});
const heavy = defineRoute({
  method: 'get',
  path: '/heavy',
  auth: 'public',
  heavy: true,
  summary: 'Gated; no place is ever free',
  responses: { 200: { description: 'Never', schema: z.object({ ok: z.boolean() }) } },
  handler: () => ({ status: 200, body: { ok: true } }),
});

async function expired(): Promise<number> {
  const line = (await metricsRegistry.metrics()).split('\n').find((l) => l.startsWith('request_deadline_expired_total '));
  return line ? Number(line.split(' ')[1]) : 0;
}

describe('requestDeadline (every request answered within the request bound)', () => {
  let server: Awaited<ReturnType<typeof listenLoopback>>;
  beforeAll(async () => {
    const app = buildServiceApp(
      testAppOptions({ routes: [late, lateFailure, slowAuth, quick, heavy], requestBoundMs: BOUND_MS, gate: { concurrent: 0, queue: 10, waitMs: 10_000 } }),
    );
    server = await listenLoopback(app);
  });
  afterAll(() => server.close());

  it('answers 503 database_unavailable with Retry-After at the bound, drops the late answer, and keeps the connection', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const before = await expired();
    const started = Date.now();
    const first = await sendRaw(server.port, { method: 'get', url: '/late', headers: {} }, agent);
    const took = Date.now() - started;
    expect(first.status).toBe(503);
    expect(JSON.parse(first.text)).toEqual({ error: { code: 'database_unavailable' } });
    expect(first.headers['retry-after']).toBe('5');
    expect(took).toBeGreaterThanOrEqual(BOUND_MS - 5);
    expect(took).toBeLessThan(2 * BOUND_MS);
    expect(await expired()).toBe(before + 1);
    // the work went on and its answer was dropped; the same connection serves the next request
    await sleep(2 * BOUND_MS);
    expect(lateAnswers).toBe(1);
    expect(Object.values(agent.freeSockets).flat()).toHaveLength(1);
    const next = await sendRaw(server.port, { method: 'post', url: '/quick', headers: { 'Content-Type': 'application/json' }, body: '{"name":"a"}' }, agent);
    expect(next.status).toBe(201);
    agent.destroy();
  });

  it('a late error after the answer is dropped too: no crash, the connection is kept', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const first = await sendRaw(server.port, { method: 'get', url: '/late-failure', headers: {} }, agent);
    expect(first.status).toBe(503);
    await sleep(2 * BOUND_MS);
    const socket = Object.values(agent.freeSockets).flat()[0];
    expect(socket?.destroyed).toBe(false);
    const next = await sendRaw(server.port, { method: 'post', url: '/quick', headers: { 'Content-Type': 'application/json' }, body: '{"name":"b"}' }, agent);
    expect(next.status).toBe(201);
    agent.destroy();
  });

  it('a request answered while it still waited before its handler (authentication) never runs the handler: no write begins after the 503', async () => {
    const res = await sendRaw(server.port, { method: 'post', url: '/slow-auth', headers: {} });
    expect(res.status).toBe(503);
    await sleep(2 * BOUND_MS);
    expect(slowAuthHandled).toBe(0);
  });

  it('does not count the time the body takes to arrive: a body sent after twice the bound is answered', async () => {
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: server.port, method: 'POST', path: '/quick', headers: { 'Content-Type': 'application/json', 'Content-Length': '12' } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.flushHeaders();
      setTimeout(() => req.end('{"name":"c"}'), 2 * BOUND_MS);
    });
    expect(answer).toEqual({ status: 201, text: '{"name":"c"}' });
  });

  it('the heavy-request queue lets a request wait only until ADMISSION_MARGIN_MS before its deadline, then answers its own 503 overloaded', async () => {
    const bound = ADMISSION_MARGIN_MS + 300;
    const app = buildServiceApp(testAppOptions({ routes: [heavy], requestBoundMs: bound, gate: { concurrent: 0, queue: 10, waitMs: 10_000 } }));
    const own = await listenLoopback(app);
    try {
      const started = Date.now();
      const res = await sendRaw(own.port, { method: 'get', url: '/heavy', headers: {} });
      const took = Date.now() - started;
      expect(res.status).toBe(503);
      expect(JSON.parse(res.text)).toEqual({ error: { code: 'overloaded' } });
      expect(took).toBeGreaterThanOrEqual(bound - ADMISSION_MARGIN_MS - 5);
      expect(took).toBeLessThan(bound);
    } finally {
      await own.close();
    }
  });

  it('a request answered in time gets nothing more from the deadline', async () => {
    const before = await expired();
    const res = await sendRaw(server.port, { method: 'post', url: '/quick', headers: { 'Content-Type': 'application/json' }, body: '{"name":"d"}' });
    expect(res.status).toBe(201);
    await sleep(2 * BOUND_MS);
    expect(await expired()).toBe(before);
  });
});
