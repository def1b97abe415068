import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { useReplicas } from '@lib/testing';
import { leaseHolder } from '@lib/mongo';
import { syncRunModel } from '../src/feeds/sync-run.model';
import { sourceModel } from '../src/feeds/source.model';
import { startFeedServer, type FeedServer } from './feed-server';

// Three news-api processes on one database, their publishers played by a feed server on loopback.
const MASTER_KEY = 'news-api-development-master-key'; // the development default (NODE_ENV=test)
const feedsFile = path.join(tmpdir(), `news-replica-feeds-${process.pid}.json`);
const SLOW_FEED =
  '<rss version="2.0"><channel><title>Slow</title><item><title>Slow news</title><link>https://slow.example/1</link></item></channel></rss>';
let feeds: FeedServer;
beforeAll(async () => {
  feeds = await startFeedServer();
  const publishers = [
    { id: 'abc-news', name: 'ABC News', feeds: [feeds.url('/abc.xml')] },
    { id: 'slow', name: 'Slow Publisher', feeds: [feeds.url('/slow.xml')] },
  ];
  writeFileSync(feedsFile, JSON.stringify({ publishers }));
  feeds.set('/abc.xml', { fixture: 'abc.xml' });
  feeds.set('/slow.xml', { body: SLOW_FEED, delayMs: 300 });
});
afterAll(async () => {
  await feeds.close();
  rmSync(feedsFile, { force: true });
});

// a sync at start when due, then hourly; a killed replica's lease lasts 3 s
const replicas = useReplicas({
  entry: 'apps/news-api/src/main.ts',
  replicas: 3,
  env: { NEWS_FEEDS: feedsFile, FEED_ALLOWED_HOSTS: '127.0.0.1', NEWS_SYNC_INTERVAL: '1h', NEWS_SYNC_LEASE: '3s' },
});
const ALL = [0, 1, 2];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => boolean | Promise<boolean>, what: string, ms = 30_000) {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(50)) if (await check()) return;
  throw new Error(`timed out waiting for ${what}`);
}
const syncOn = (i: number) => replicas.replica(i).post('/news/sync').set('Authorization', `Bearer ${MASTER_KEY}`);
const lastRun = () => syncRunModel(replicas.db.connection).findById('last').lean();
const sourceErrors = async () => (await sourceModel(replicas.db.connection).find().lean()).filter((s) => s.last_error).map((s) => s.last_error);

/** A sync answered in full: 200, every publisher without errors, the slow feed fetched a second time since `slowBefore` (the cut sync's attempt and this one), none stored failing. */
async function expectFullSync(res: { status: number; body: { sources: Array<{ errors: string[] }> } }, slowBefore: number) {
  expect(res.status).toBe(200);
  expect(res.body.sources.map((s) => s.errors)).toEqual([[], []]);
  expect(feeds.hits('/slow.xml')).toBe(slowBefore + 2);
  expect(await sourceErrors()).toEqual([]);
}

const isReady = (i: number) => replicas.replica(i).get('/readyz').timeout(5_000).then((res) => res.status === 200, () => false);

describe('news-api on three replicas: one feed sync per cluster', () => {
  let killed: number | undefined;
  // every test starts with three live replicas; one found down is reported with its output (and restarted for the next test)
  let down: number[] = [];
  beforeEach(async () => {
    down = (await Promise.all(ALL.map(async (i) => ((await isReady(i)) ? -1 : i)))).filter((i) => i >= 0);
    if (down.length) throw new Error(down.map((i) => `replica ${i} is down; its last output:\n${replicas.output(i)}`).join('\n'));
  }, 30_000);
  afterEach(async () => {
    for (const i of new Set([...down, ...(killed === undefined ? [] : [killed])])) await replicas.restart(i);
    killed = undefined;
    down = [];
    feeds.set('/slow.xml', { body: SLOW_FEED, delayMs: 300 });
  }, 60_000);

  it('syncs once at start for the three pods, not once per pod', async () => {
    await until(async () => (await lastRun()) !== null, 'the start-up sync');
    await sleep(1_000); // the other replicas have looked by now (every 2 s) and found the sync done
    expect(feeds.hits('/abc.xml')).toBe(1);
    expect(feeds.hits('/slow.xml')).toBe(1);
    // a pod started later finds the recent sync and does not sync again
    await replicas.kill(2, 'SIGTERM');
    killed = 2;
    await replicas.restart(2);
    killed = undefined;
    await sleep(2_500);
    expect(feeds.hits('/abc.xml')).toBe(1);
  }, 90_000);

  it('POST /news/sync on every replica at once runs one sync: each feed fetched once, one report for all', async () => {
    const before = feeds.hits('/abc.xml');
    const answers = await Promise.all(ALL.map(syncOn));
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200]);
    expect(answers[1].body).toEqual(answers[0].body);
    expect(answers[2].body).toEqual(answers[0].body);
    expect(answers[0].body.sources.map((s: { errors: string[] }) => s.errors)).toEqual([[], []]);
    expect(feeds.hits('/abc.xml')).toBe(before + 1);
    expect(await leaseHolder(replicas.db.connection, 'feed-sync')).toBeUndefined();
  }, 60_000);

  it('a replica stopped (SIGTERM) mid-sync marks no publisher failing, and a caller waiting on another replica gets a full sync from it', async () => {
    feeds.set('/slow.xml', { hang: true });
    const slowBefore = feeds.hits('/slow.xml');
    const first = syncOn(0).then((res) => res.status, () => 'cut');
    await until(() => feeds.hits('/slow.xml') > slowBefore, 'replica 0 fetching');
    const joined = syncOn(1); // waits for replica 0's sync
    await sleep(200);
    feeds.set('/slow.xml', { body: SLOW_FEED });
    await replicas.kill(0, 'SIGTERM');
    killed = 0;
    expect(['cut', 503]).toContain(await first);
    await expectFullSync(await joined, slowBefore);
  }, 90_000);

  it('a replica killed (SIGKILL) mid-sync: another takes over once its lease expires (3 s here), and no publisher is marked failing', async () => {
    feeds.set('/slow.xml', { hang: true });
    const slowBefore = feeds.hits('/slow.xml');
    void syncOn(2).catch(() => undefined);
    await until(() => feeds.hits('/slow.xml') > slowBefore, 'replica 2 fetching');
    const joined = syncOn(1);
    feeds.set('/slow.xml', { body: SLOW_FEED });
    await replicas.kill(2, 'SIGKILL');
    killed = 2;
    await expectFullSync(await joined, slowBefore);
  }, 90_000);

  it('a scheduled sync stopped by shutdown is taken up by another replica at once, not at the next interval', async () => {
    // only replica 0 runs while the sync falls due
    await Promise.all([replicas.kill(1, 'SIGTERM'), replicas.kill(2, 'SIGTERM')]);
    feeds.set('/slow.xml', { hang: true });
    const slowBefore = feeds.hits('/slow.xml');
    await syncRunModel(replicas.db.connection).deleteMany({}); // no sync ever ran: one is due
    await until(() => feeds.hits('/slow.xml') > slowBefore, 'replica 0’s scheduled sync');
    await Promise.all([replicas.restart(1), replicas.restart(2)]);
    expect(await lastRun()).toBeNull(); // replica 0 still holds the lease: the others wait
    feeds.set('/slow.xml', { body: SLOW_FEED });
    await replicas.kill(0, 'SIGTERM');
    killed = 0;
    await until(async () => (await lastRun()) !== null, 'the sync taken up by replica 1 or 2', 20_000);
    expect((await lastRun())!.report.sources.map((s) => s.errors)).toEqual([[], []]);
    expect(await sourceErrors()).toEqual([]);
  }, 120_000);
});
