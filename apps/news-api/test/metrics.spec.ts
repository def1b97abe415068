import { metricsRegistry } from '@lib/http';
import request from 'supertest';
import { AUTH_LIMIT_NAME } from '../src/auth/rate-limit';
import { MASTER_KEY, setupNewsApp } from './setup-app';

const ctx = setupNewsApp({
  authLimit: { maxFailures: 2, windowMs: 60_000 },
  publishers: (feeds) => [
    { id: 'abc-news', name: 'ABC News', feeds: [feeds.url('/abc.xml')] },
    { id: 'flaky', name: 'Flaky Publisher', feeds: [feeds.url('/flaky.xml')] },
  ],
  fetchLimits: { timeoutMs: 2_000, maxBytes: 256 * 1024 },
});

/** One sample of `/metrics`, as the app serves it (0 when absent). */
async function sample(key: string): Promise<number> {
  const res = await request(ctx.app).get('/metrics');
  expect(res.status).toBe(200);
  const line = res.text.split('\n').find((l) => l.startsWith(`${key} `));
  return line ? Number(line.slice(key.length + 1)) : 0;
}

beforeEach(() => metricsRegistry.resetMetrics());

describe('news-api /metrics', () => {
  it('counts a sync run, the entries it stored per source, and the feeds that failed', async () => {
    ctx.feeds.reset();
    ctx.feeds.set('/abc.xml', { fixture: 'abc.xml' });
    ctx.feeds.set('/flaky.xml', { status: 404 });
    expect((await request(ctx.app).post('/news/sync').send({ access_token: MASTER_KEY })).status).toBe(200);
    expect(await sample('feed_sync_runs_total{result="completed"}')).toBe(1);
    expect(await sample('feed_entries_stored_total{source="abc-news",outcome="inserted"}')).toBe(3);
    expect(await sample('feed_fetch_failures_total{source="flaky"}')).toBe(1);
    expect(await sample('feed_fetch_failures_total{source="abc-news"}')).toBe(0);
    // the same feeds again: nothing new stored, one more run
    expect((await request(ctx.app).post('/news/sync').send({ access_token: MASTER_KEY })).status).toBe(200);
    expect(await sample('feed_sync_runs_total{result="completed"}')).toBe(2);
    expect(await sample('feed_entries_stored_total{source="abc-news",outcome="inserted"}')).toBe(3);
    expect(await sample('feed_fetch_failures_total{source="flaky"}')).toBe(2);
  });

  it('counts failed sign-ins and the 429s of the limit', async () => {
    await ctx.createUser('ana@example.com', 'password-123');
    for (let i = 0; i < 2; i++) await request(ctx.app).post('/auth').auth('ana@example.com', `wrong-${i}`).send({ access_token: MASTER_KEY }).expect(401);
    await request(ctx.app).post('/auth').auth('ana@example.com', 'password-123').send({ access_token: MASTER_KEY }).expect(429);
    expect(await sample(`failed_attempts_total{limit="${AUTH_LIMIT_NAME}"}`)).toBe(2);
    expect(await sample(`failed_attempts_refused_total{limit="${AUTH_LIMIT_NAME}"}`)).toBe(1);
  });

  it('labels requests by route template, not by the ids in their URLs', async () => {
    const token = await ctx.tokenFor('user');
    for (const id of [101, 102, 103]) await request(ctx.app).get(`/news/${id}`).set('Authorization', `Bearer ${token}`);
    await new Promise((resolve) => setTimeout(resolve, 50)); // counted when each response closes
    const text = (await request(ctx.app).get('/metrics')).text;
    expect(text).toMatch(/^http_requests_total\{method="GET",route="\/news\/:id",status="\d{3}"\} 3$/m);
    expect(text).not.toMatch(/route="\/news\/10\d"/);
  });
});
