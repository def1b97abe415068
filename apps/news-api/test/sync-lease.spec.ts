import { createLifecycle, createLogger } from '@lib/http';
import { leaseHolder } from '@lib/mongo';
import { feedSync, type FeedSync } from '../src/feeds/feed-sync';
import { newsRepositories } from '../src/repositories';
import { scheduleSync, type SyncSchedule } from '../src/feeds/sync-schedule';
import { syncRunModel } from '../src/feeds/sync-run.model';
import { setupNewsApp, TEST_FEED_POLICY } from './setup-app';

// Several feedSync instances on one database play the replicas of one cluster (the replica
// harness test, replicas.spec.ts, does the same with separate processes).
const ctx = setupNewsApp({ publishers: (feeds) => [{ id: 'abc-news', name: 'ABC News', feeds: [feeds.url('/abc.xml')] }] });

const silent = createLogger('test', 'silent');
const replicas: FeedSync[] = [];
const schedules: SyncSchedule[] = [];
const replica = (options: { leaseMs?: number } = {}) => {
  const sync = feedSync({
    repositories: newsRepositories(ctx.connection),
    logger: silent,
    publishers: [
      { id: 'abc-news', name: 'ABC News', feeds: [ctx.feeds.url('/abc.xml')] },
      { id: 'slow', name: 'Slow Publisher', feeds: [ctx.feeds.url('/slow.xml')] },
    ],
    policy: TEST_FEED_POLICY,
    limits: { timeoutMs: 20_000, maxBytes: 256 * 1024 },
    pollMs: 50,
    ...options,
  });
  replicas.push(sync);
  return sync;
};
const schedule = (sync: FeedSync, intervalMs = 60_000) => {
  const s = scheduleSync(sync, { intervalMs, checkMs: 50, logger: silent, lifecycle: createLifecycle() });
  schedules.push(s);
  return s;
};
/** The slow publisher's own articles (other URLs than ABC's). */
const SLOW_FEED =
  '<rss version="2.0"><channel><title>Slow</title><item><title>Slow news</title><link>https://slow.example/1</link></item></channel></rss>';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => boolean | Promise<boolean>, what: string, ms = 15_000) {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(25)) if (await check()) return;
  throw new Error(`timed out waiting for ${what}`);
}

beforeEach(() => {
  ctx.feeds.reset();
  ctx.feeds.set('/abc.xml', { fixture: 'abc.xml' });
  ctx.feeds.set('/slow.xml', { body: SLOW_FEED, delayMs: 600 });
});

afterEach(async () => {
  await Promise.all(schedules.splice(0).map((s) => s.stop()));
  await Promise.all(replicas.splice(0).map((r) => r.stop()));
});

describe('one feed sync per cluster', () => {
  it('runs one sync for three replicas called at once: each feed is fetched once and all three answer its report', async () => {
    const [a, b, c] = [replica(), replica(), replica()];
    const reports = await Promise.all([a.run(), b.run(), c.run()]);
    expect(ctx.feeds.hits('/abc.xml')).toBe(1);
    expect(ctx.feeds.hits('/slow.xml')).toBe(1);
    expect(reports[1]).toEqual(reports[0]);
    expect(reports[2]).toEqual(reports[0]);
    expect(reports[0].sources[0]).toEqual({ id: 'abc-news', name: 'ABC News', entries: 3, inserted: 3, updated: 0, errors: [] });
    expect(reports[0].sources[1]).toEqual({ id: 'slow', name: 'Slow Publisher', entries: 1, inserted: 1, updated: 0, errors: [] });
    expect(await ctx.Article.countDocuments()).toBe(4);
    expect(await leaseHolder(ctx.connection, 'feed-sync')).toBeUndefined();
    const last = await syncRunModel(ctx.connection).findById('last').lean();
    expect(last?.report).toEqual(reports[0]);
  });

  it('starts a new sync for a call after the last one ended', async () => {
    const [a, b] = [replica(), replica()];
    const first = await a.run();
    const second = await b.run();
    expect(ctx.feeds.hits('/abc.xml')).toBe(2);
    expect(Date.parse(second.startedAt)).toBeGreaterThanOrEqual(Date.parse(first.finishedAt));
  });

  it('syncs at start only when no replica synced within the interval, and each interval once across schedules', async () => {
    await replica().run();
    expect(ctx.feeds.hits('/abc.xml')).toBe(1);
    // two more replicas start: the last sync is recent, so neither syncs at start
    schedule(replica(), 60_000);
    schedule(replica(), 60_000);
    await sleep(500);
    expect(ctx.feeds.hits('/abc.xml')).toBe(1);

    // with a short interval, three schedules share the work: one sync per due interval, never one per replica
    await Promise.all(schedules.splice(0).map((s) => s.stop()));
    ctx.feeds.set('/slow.xml', { body: SLOW_FEED });
    const started = Date.now();
    for (const sync of [replica(), replica(), replica()]) schedule(sync, 300);
    await until(() => ctx.feeds.hits('/abc.xml') >= 5, 'four more scheduled syncs');
    await Promise.all(schedules.splice(0).map((s) => s.stop()));
    const elapsed = Date.now() - started;
    const hits = ctx.feeds.hits('/abc.xml') - 1;
    // at most one sync starts per interval (one per replica would be three), each fetching each feed once
    expect(hits).toBeLessThanOrEqual(Math.floor(elapsed / 300) + 1);
    expect(Math.abs(ctx.feeds.hits('/slow.xml') - ctx.feeds.hits('/abc.xml'))).toBeLessThanOrEqual(1);
  });

  it('a replica stopped mid-sync records no publisher error, frees the lease, and another replica takes the sync up at once', async () => {
    ctx.feeds.set('/slow.xml', { hang: true });
    const a = replica();
    const running = a.run();
    const failure = running.catch((err: unknown) => err);
    await until(() => ctx.feeds.hits('/slow.xml') === 1, 'the first fetch');
    const holder = await leaseHolder(ctx.connection, 'feed-sync');
    expect(holder).toEqual(expect.any(String));

    const b = replica();
    const joined = b.run(); // waits for a's run
    ctx.feeds.set('/slow.xml', { body: SLOW_FEED });
    await a.stop();
    expect(await failure).toMatchObject({ status: 503, code: 'sync_interrupted', headers: { 'Retry-After': '1' } });
    const report = await joined; // a's run ended without a report: b ran one itself
    expect(report.sources.map((s) => s.errors)).toEqual([[], []]);
    expect(ctx.feeds.hits('/slow.xml')).toBe(2);
    const sources = await ctx.Source.find().sort({ _id: 1 }).lean();
    expect(sources.map((s) => ({ id: s._id, error: s.last_error ?? null }))).toEqual([
      { id: 'abc-news', error: null },
      { id: 'slow', error: null },
    ]);
    expect(await leaseHolder(ctx.connection, 'feed-sync')).toBeUndefined();
  });

  it('a schedule takes up a sync stopped on another replica at its next look, not at its next interval', async () => {
    ctx.feeds.set('/slow.xml', { hang: true });
    const a = replica();
    schedule(a, 60_000);
    await until(() => ctx.feeds.hits('/slow.xml') === 1, 'the first fetch');
    ctx.feeds.set('/slow.xml', { body: SLOW_FEED });
    const b = replica();
    schedule(b, 60_000);
    await sleep(200);
    expect(ctx.feeds.hits('/abc.xml')).toBe(1); // a holds the lease: b waits
    await schedules[0].stop();
    await until(async () => (await syncRunModel(ctx.connection).findById('last').lean()) !== null, 'b’s sync');
    expect(ctx.feeds.hits('/abc.xml')).toBe(2);
    expect(await ctx.Source.countDocuments({ last_error: { $exists: true } })).toBe(0);
  });

  it('takes over from a replica killed mid-sync once its lease expires', async () => {
    // a holder that died: its lease is stored and never renewed or released
    const leases = ctx.connection.collection('leases');
    await leases.insertOne({ _id: 'feed-sync' as never, holder: 'killed-replica', expires_at: new Date(Date.now() + 1_500) });
    const b = replica();
    const report = await b.run();
    expect(report.sources[0]).toMatchObject({ id: 'abc-news', inserted: 3, errors: [] });
    expect(ctx.feeds.hits('/abc.xml')).toBe(1);
    expect(await leases.findOne({ _id: 'feed-sync' as never })).toMatchObject({ holder: null });
  });
});
