import request from 'supertest';
import { buildServiceApp } from './build-app';
import { getItem, testAppOptions } from './test-app.fixture';
import { heavyRequestGate } from './heavy-request-gate';
import { collectProcessMetrics, metricsRegistry } from './metrics';

const app = buildServiceApp(testAppOptions({ routes: [getItem] }));

/** The samples of `/metrics` as `name{labels}` → value. */
async function scrape(): Promise<Map<string, number>> {
  const res = await request(app).get('/metrics');
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  const samples = new Map<string, number>();
  for (const line of res.text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

/** Requests are counted when their response closes, just after the client has it. */
async function settle() {
  await new Promise((resolve) => setTimeout(resolve, 50));
}

const sample = (samples: Map<string, number>, key: string) => samples.get(key) ?? 0;

describe('/metrics', () => {
  beforeEach(() => metricsRegistry.resetMetrics());

  it('counts requests by method, route template (never the raw URL) and status, with their durations', async () => {
    for (const id of [1, 2, 3]) expect((await request(app).get(`/items/${id}`)).status).toBe(200);
    expect((await request(app).get('/items/x')).status).toBe(400);
    await settle();
    const samples = await scrape();
    expect(sample(samples, 'http_requests_total{method="GET",route="/items/:id",status="200"}')).toBe(3);
    expect(sample(samples, 'http_requests_total{method="GET",route="/items/:id",status="400"}')).toBe(1);
    expect(sample(samples, 'http_request_duration_seconds_count{method="GET",route="/items/:id",status="200"}')).toBe(3);
    expect(sample(samples, 'http_request_duration_seconds_bucket{method="GET",route="/items/:id",status="200",le="+Inf"}')).toBe(3);
    expect(sample(samples, 'http_request_duration_seconds_sum{method="GET",route="/items/:id",status="200"}')).toBeGreaterThan(0);
    // buckets are cumulative: each at most the next
    const buckets = [...samples].filter(([key]) => key.startsWith('http_request_duration_seconds_bucket{') && key.includes('status="200"'));
    expect(buckets.map(([, value]) => value)).toEqual([...buckets.map(([, value]) => value)].sort((a, b) => a - b));
    expect([...samples.keys()].some((key) => /\/items\/\d/.test(key))).toBe(false);
  });

  it('counts whatever matched no route under one label, however many URLs', async () => {
    for (const path of ['/nope', '/nope/1', '/wp-admin.php', '/x?y=1']) expect((await request(app).get(path)).status).toBe(404);
    await settle();
    const samples = await scrape();
    expect(sample(samples, 'http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(4);
    expect([...samples.keys()].filter((key) => key.startsWith('http_requests_total'))).toEqual(['http_requests_total{method="GET",route="unmatched",status="404"}']);
  });

  it('moves with further requests, and counts the scrape itself', async () => {
    await request(app).get('/items/1');
    await settle();
    const before = sample(await scrape(), 'http_requests_total{method="GET",route="/items/:id",status="200"}');
    await request(app).get('/items/2');
    await request(app).post('/items/2');
    await settle();
    const after = await scrape();
    expect(sample(after, 'http_requests_total{method="GET",route="/items/:id",status="200"}')).toBe(before + 1);
    expect(sample(after, 'http_requests_total{method="GET",route="/metrics",status="200"}')).toBe(1);
  });

  it('has the process metrics, the gate sheds and the pool gauges', async () => {
    const gate = heavyRequestGate({ concurrent: 0, queue: 0, waitMs: 10 });
    await new Promise<void>((resolve) => gate.admit(() => true)({} as never, { once: () => undefined } as never, () => resolve()));
    const samples = await scrape();
    expect(sample(samples, 'heavy_requests_shed_total{reason="queue_full"}')).toBe(1);
    collectProcessMetrics(); // what startOrExit starts
    const withProcess = await scrape();
    for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds']) {
      expect([...withProcess.keys()].some((key) => key.startsWith(name))).toBe(true);
    }
    const text = (await request(app).get('/metrics')).text;
    expect(text).toContain('# TYPE mongodb_pool_checked_out_connections gauge');
  });
});
