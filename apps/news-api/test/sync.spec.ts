import request from 'supertest';
import { feedSync, type FeedSync } from '../src/feeds/feed-sync';
import { newsRepositories } from '../src/repositories';
import { scheduleSync } from '../src/feeds/sync-schedule';
import { createLifecycle, createLogger, type Logger } from '@lib/http';
import pino from 'pino';
import { leaseHolder } from '@lib/mongo';
import type { Publisher } from '../src/feeds/feeds-config';
import { fixture } from './feed-server';
import { MASTER_KEY, setupNewsApp, TEST_FEED_POLICY } from './setup-app';

const ctx = setupNewsApp({
  publishers: (feeds) => [
    { id: 'abc-news', name: 'ABC News', feeds: [feeds.url('/abc.xml')] },
    { id: 'guardian-au', name: 'The Guardian Australia', feeds: [feeds.url('/guardian.atom')] },
    { id: 'flaky', name: 'Flaky Publisher', feeds: [feeds.url('/flaky.xml')] },
  ],
  fetchLimits: { timeoutMs: 1_000, maxBytes: 256 * 1024 },
});

/** A feed sync of `publishers` on the test database, logging nothing (or into `logger`), each fetch bounded by `timeoutMs`. */
const syncOf = (publishers: Publisher[], timeoutMs: number, more: { parseBudgetMs?: number; logger?: Logger } = {}) =>
  feedSync({
    repositories: newsRepositories(ctx.connection),
    logger: more.logger ?? createLogger('test', 'silent'),
    publishers,
    policy: TEST_FEED_POLICY,
    limits: { timeoutMs, maxBytes: 256 * 1024, parseBudgetMs: more.parseBudgetMs },
  });
const scheduleEvery = (sync: FeedSync, intervalMs: number) => scheduleSync(sync, { intervalMs, logger: createLogger('test', 'silent'), lifecycle: createLifecycle() });

const syncNow = () => request(ctx.app).post('/news/sync').send({ access_token: MASTER_KEY });

beforeEach(() => {
  ctx.feeds.reset();
  ctx.feeds.set('/abc.xml', { fixture: 'abc.xml' });
  // Its second entry is an ABC article (syndication): the publisher that stores a URL first keeps
  // it, so the Guardian answers late and the ABC always wins here.
  ctx.feeds.set('/guardian.atom', { fixture: 'guardian.atom', type: 'application/atom+xml', delayMs: 400 });
  ctx.feeds.set('/flaky.xml', {
    body: '<rss version="2.0"><channel><title>Flaky</title><item><title>Flaky news</title><link>https://flaky.example/1</link></item></channel></rss>',
  });
});

describe('POST /news/sync', () => {
  it('fetches every feed and stores each article once, by canonical URL, tagged with companies', async () => {
    ctx.feeds.set('/flaky.xml', { status: 404 });
    const res = await syncNow();
    expect(res.status).toBe(200);
    expect(res.body.sources).toEqual([
      { id: 'abc-news', name: 'ABC News', entries: 3, inserted: 3, updated: 0, errors: [] },
      // its second entry is the ABC article with other tracking parameters: the same article
      expect.objectContaining({ id: 'guardian-au', entries: 2, inserted: 1, errors: [] }),
      { id: 'flaky', name: 'Flaky Publisher', entries: 0, inserted: 0, updated: 0, errors: [`${ctx.feeds.url('/flaky.xml')}: HTTP 404`] },
    ]);

    const stored = await ctx.Article.find().sort({ published_at: -1 }).lean();
    expect(stored.map((a) => a.url)).toEqual([
      'https://www.theguardian.com/business/2026/nov/20/qantas-virgin-flights',
      'https://www.abc.net.au/news/2026-11-20/bhp-iron-ore-output/101',
      'https://www.abc.net.au/news/2026-11-19/cba-profit/102',
      'https://www.abc.net.au/news/2026-11-18/supermarkets/103',
    ]);
    const [qantas, bhp, cba, supermarkets] = stored;
    expect(bhp).toMatchObject({
      title: 'BHP lifts iron ore output as China demand steadies',
      summary: 'The miner (ASX: BHP) said shipments from the Pilbara rose 4 per cent.',
      source: 'abc-news',
      source_name: 'ABC News',
      companies: ['BHP'],
    });
    expect(bhp.published_at.toISOString()).toBe('2026-11-19T22:00:00.000Z');
    expect(cba.companies).toEqual(['CBA', 'WBC']);
    // names match whole and case-sensitively ("coles" in a sentence is not Coles); unknown codes are ignored
    expect(supermarkets.companies).toEqual(['COL', 'MTS', 'WOW']);
    expect(supermarkets.summary).not.toContain('<');
    expect(qantas).toMatchObject({ title: 'Qantas & Virgin Australia add flights for summer', summary: 'Qantas Airways (ASX: QAN) expects record bookings.', companies: ['QAN', 'VGN'] });
  });

  it('updates, never duplicates, on a re-sync', async () => {
    await syncNow().expect(200);
    const before = await ctx.Article.find().lean();
    ctx.feeds.set('/abc.xml', { body: fixture('abc.xml').replace('BHP lifts iron ore output', 'BHP lifts iron ore output again') });
    const res = await syncNow();
    expect(res.body.sources[0]).toMatchObject({ id: 'abc-news', entries: 3, inserted: 0, updated: 1 });
    const after = await ctx.Article.find().lean();
    expect(after).toHaveLength(before.length);
    const bhp = after.find((a) => a.url.includes('bhp-iron-ore'))!;
    expect(bhp.title).toBe('BHP lifts iron ore output again as China demand steadies');
    expect(bhp._id).toBe(before.find((a) => a.url.includes('bhp-iron-ore'))!._id);
  });

  it('stores each URL once when syncs run at the same time', async () => {
    const responses = await Promise.all([syncNow(), syncNow(), syncNow()]);
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(await ctx.Article.countDocuments()).toBe(5);
    expect(ctx.feeds.hits('/abc.xml')).toBe(1); // the later calls joined the running sync
  });

  it.each([
    ['an HTTP error', { status: 503 }, 'HTTP 503'],
    ['a publisher that never answers', { hang: true }, 'no complete answer within 1000 ms'],
    ['a body over the size limit', { streamBytes: 2 * 1024 * 1024 }, 'body larger than 262144 bytes'],
    ['an HTML page', { fixture: 'not-a-feed.html', type: 'text/html' }, 'not a readable RSS or Atom feed'],
    ['garbage', { body: '<<<%%% not xml at all' }, 'not a readable RSS or Atom feed'],
    ['external entities (XXE)', { fixture: 'xxe.xml' }, 'not a readable RSS or Atom feed'],
  ])('isolates one publisher sending %s: the others are stored and the error is shown', async (_case, reply, reason) => {
    ctx.feeds.set('/flaky.xml', reply);
    const res = await syncNow();
    expect(res.status).toBe(200);
    const flaky = res.body.sources.find((s: { id: string }) => s.id === 'flaky');
    expect(flaky.errors).toEqual([expect.stringContaining(reason)]);
    expect(flaky.errors[0]).not.toMatch(/passwd|root:/);
    expect(await ctx.Article.countDocuments({ source: 'abc-news' })).toBe(3);
    expect(await ctx.Article.countDocuments({ source: 'guardian-au' })).toBe(1);
    expect(await ctx.Article.countDocuments({ source: 'flaky' })).toBe(0);

    const token = await ctx.tokenFor('user');
    const sources = await request(ctx.app).get('/sources').set('Authorization', `Bearer ${token}`);
    expect(sources.body.data.find((s: { id: string }) => s.id === 'flaky')).toEqual({
      id: 'flaky',
      name: 'Flaky Publisher',
      feeds: [ctx.feeds.url('/flaky.xml')],
      domain: '127.0.0.1',
      language: 'en',
      status: 'failing',
      lastSyncAt: expect.any(String),
      lastSuccessAt: null,
      lastErrorAt: expect.any(String),
      lastError: expect.stringContaining(reason),
      articleCount: 0,
    });
  });

  it('survives entity expansion bombs (billion laughs) quickly, storing nothing huge', async () => {
    ctx.feeds.set('/flaky.xml', { fixture: 'billion-laughs.xml' });
    const started = Date.now();
    const res = await syncNow();
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    const laughs = await ctx.Article.find({ source: 'flaky' }).lean();
    for (const article of laughs) expect(article.title.length + article.summary.length).toBeLessThan(2_000);
    expect(await ctx.Article.countDocuments({ source: 'abc-news' })).toBe(3);
  });

  it('keeps each source’s last success, last error and article count for GET /sources', async () => {
    await syncNow().expect(200);
    ctx.feeds.set('/abc.xml', { status: 500 });
    await syncNow().expect(200);
    const token = await ctx.tokenFor('user');
    const res = await request(ctx.app).get('/sources').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    const abc = res.body.data.find((s: { id: string }) => s.id === 'abc-news');
    expect(abc).toMatchObject({ status: 'failing', articleCount: 3, lastError: `${ctx.feeds.url('/abc.xml')}: HTTP 500` });
    expect(Date.parse(abc.lastSuccessAt)).toBeLessThan(Date.parse(abc.lastErrorAt));
    expect(res.body.data.find((s: { id: string }) => s.id === 'guardian-au')).toMatchObject({ status: 'ok', articleCount: 1, lastError: null });
  });

  it('never reaches the network: a feed on another host fails and the rest go on', async () => {
    const sync = syncOf([
        { id: 'outside', name: 'Outside', feeds: ['https://www.abc.net.au/news/feed/51892/rss.xml'] },
        { id: 'abc-news', name: 'ABC News', feeds: [ctx.feeds.url('/abc.xml')] },
      ], 1_000);
    const report = await sync.run();
    expect(report.sources[0].errors).toEqual([expect.stringContaining('network access blocked in tests')]);
    expect(report.sources[1]).toMatchObject({ inserted: 3, errors: [] });
  });

  it.each([
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data/', 'refused: 169.254.169.254 is a cloud metadata address; list it in FEED_ALLOWED_HOSTS if it is a deliberate internal one'],
    ['a private address', 'https://10.0.0.7/rss.xml', 'refused: 10.0.0.7 is a private address; list it in FEED_ALLOWED_HOSTS if it is a deliberate internal one'],
    ['a loopback address not on the allow-list', 'https://[::1]:9/rss.xml', 'refused: ::1 is a loopback address; list it in FEED_ALLOWED_HOSTS if it is a deliberate internal one'],
    ['plain http to a public address', 'http://[2606:4700::1111]/rss.xml', 'refused: plain http to 2606:4700::1111: use https, or list it in FEED_ALLOWED_HOSTS if it is a deliberate internal one'],
  ])('refuses a feed at %s, recording why on its source and logging one line', async (_what, feed, reason) => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const report = await syncOf([{ id: 'flaky', name: 'Flaky Publisher', feeds: [feed] }, { id: 'abc-news', name: 'ABC News', feeds: [ctx.feeds.url('/abc.xml')] }], 1_000, { logger }).run();
    expect(report.sources[0].errors).toEqual([`${feed}: ${reason}`]);
    expect(report.sources[1]).toMatchObject({ inserted: 3, errors: [] });
    const token = await ctx.tokenFor('user');
    const sources = await request(ctx.app).get('/sources').set('Authorization', `Bearer ${token}`);
    expect(sources.body.data.find((s: { id: string }) => s.id === 'flaky')).toMatchObject({ status: 'failing', lastError: `${feed}: ${reason}`, articleCount: 0 });
    const logged = lines.map((line) => JSON.parse(line)).filter((entry) => entry.source === 'flaky');
    expect(logged).toEqual([expect.objectContaining({ level: 40, msg: 'feed not read', feed, reason })]);
    expect(logged[0]).not.toHaveProperty('err');
  });

  it('refuses a redirect to a private address, recording why on the source', async () => {
    ctx.feeds.set('/flaky.xml', { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } });
    const res = await syncNow();
    expect(res.body.sources.find((s: { id: string }) => s.id === 'flaky').errors).toEqual([
      `${ctx.feeds.url('/flaky.xml')}: refused: 169.254.169.254 is a cloud metadata address; list it in FEED_ALLOWED_HOSTS if it is a deliberate internal one`,
    ]);
    expect(await ctx.Article.countDocuments({ source: 'abc-news' })).toBe(3);
  });

  it('follows a redirect to an allowed feed', async () => {
    ctx.feeds.set('/flaky.xml', { status: 301, headers: { location: '/moved.xml' } });
    ctx.feeds.set('/moved.xml', { fixture: 'abc.xml' });
    const res = await syncNow();
    expect(res.body.sources.find((s: { id: string }) => s.id === 'flaky')).toMatchObject({ entries: 3, errors: [] });
    expect(ctx.feeds.hits('/moved.xml')).toBe(1);
  });

  it('abandons a feed whose parsing outlasts its time budget, recording why, and the sync goes on', async () => {
    const report = await syncOf([{ id: 'abc-news', name: 'ABC News', feeds: [ctx.feeds.url('/abc.xml')] }], 1_000, { parseBudgetMs: 1 }).run();
    expect(report.sources[0].errors).toEqual([`${ctx.feeds.url('/abc.xml')}: reading the feed took longer than 1 ms: abandoned`]);
    expect(await ctx.Article.countDocuments()).toBe(0);
  });

  it('needs an admin or the master key', async () => {
    expect((await request(ctx.app).post('/news/sync')).status).toBe(401);
    expect((await request(ctx.app).post('/news/sync').send({ access_token: 'wrong' })).status).toBe(401);
    const user = await ctx.tokenFor('user');
    const refused = await request(ctx.app).post('/news/sync').set('Authorization', `Bearer ${user}`);
    expect(refused.status).toBe(403);
    expect(await ctx.Article.countDocuments()).toBe(0);
    const admin = await ctx.tokenFor('admin');
    expect((await request(ctx.app).post('/news/sync').set('Authorization', `Bearer ${admin}`)).status).toBe(200);
    expect((await request(ctx.app).post('/news/sync').set('Authorization', `Bearer ${MASTER_KEY}`)).status).toBe(200);
    expect((await request(ctx.app).post('/news/sync').type('form').send({ access_token: admin })).status).toBe(200);
    expect(await ctx.Article.countDocuments()).toBe(5);
  });
});

describe('the sync schedule', () => {
  it('runs at once and on every interval until stopped, and never after', async () => {
    const sync = syncOf([{ id: 'abc-news', name: 'ABC News', feeds: [ctx.feeds.url('/abc.xml')] }], 1_000);
    const schedule = scheduleEvery(sync, 100);
    for (let i = 0; i < 100 && ctx.feeds.hits('/abc.xml') < 3; i++) await new Promise((r) => setTimeout(r, 20));
    await schedule.stop();
    const hits = ctx.feeds.hits('/abc.xml');
    expect(hits).toBeGreaterThanOrEqual(3);
    expect(await ctx.Article.countDocuments()).toBe(3);
    await new Promise((r) => setTimeout(r, 300));
    expect(ctx.feeds.hits('/abc.xml')).toBe(hits);
  });

  it('stopped while storing a feed’s entries: stores no more of them, records no success on the source, frees the lease', async () => {
    const sync = syncOf([{ id: 'abc-news', name: 'ABC News', feeds: [ctx.feeds.url('/abc.xml')] }], 10_000);
    // the second entry's store waits until the stop has been asked
    const Article = ctx.Article as unknown as { updateOne: (...args: unknown[]) => unknown };
    const updateOne = Article.updateOne;
    let stores = 0;
    let reachedSecond!: () => void;
    const second = new Promise<void>((resolve) => (reachedSecond = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    Article.updateOne = async function (this: unknown, ...args: unknown[]) {
      if (++stores === 2) {
        reachedSecond();
        await released;
      }
      return updateOne.apply(this, args);
    };
    try {
      const schedule = scheduleEvery(sync, 60_000);
      await second;
      const stopped = schedule.stop();
      release();
      await stopped;
    } finally {
      Article.updateOne = updateOne;
    }
    // the entry being stored when the stop came may land; none after it
    expect(await ctx.Article.countDocuments()).toBeLessThanOrEqual(2);
    expect(stores).toBe(2);
    expect(await ctx.Source.findById('abc-news').lean()).toBeNull();
    expect(await leaseHolder(ctx.connection, 'feed-sync')).toBeUndefined();
  });

  it('stops a run in progress on shutdown instead of waiting for slow publishers, recording no publisher error and freeing the lease', async () => {
    ctx.feeds.set('/slow.xml', { hang: true });
    const sync = syncOf([{ id: 'slow', name: 'Slow', feeds: [ctx.feeds.url('/slow.xml')] }], 10_000);
    const schedule = scheduleEvery(sync, 60_000);
    for (let i = 0; i < 250 && ctx.feeds.hits('/slow.xml') < 1; i++) await new Promise((r) => setTimeout(r, 20));
    expect(ctx.feeds.hits('/slow.xml')).toBe(1);
    expect(await leaseHolder(ctx.connection, 'feed-sync')).toEqual(expect.any(String));
    const started = Date.now();
    await schedule.stop();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await ctx.Source.findById('slow').lean()).toBeNull();
    expect(await leaseHolder(ctx.connection, 'feed-sync')).toBeUndefined();
  });
});
