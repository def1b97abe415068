import { logCommands, type CommandLog } from '@lib/testing';
import request from 'supertest';
import { RANK_WINDOW, WINDOW_BATCH, WINDOW_READ_MAX } from '../src/news/search/relevance-pager';
import { setupNewsApp } from './setup-app';
import { indexed } from './stored-articles';

const ctx = setupNewsApp({ monitorCommands: true });

let log: CommandLog;
beforeAll(() => {
  log = logCommands(ctx.connection);
});
afterAll(() => log.stop());

const minute = (n: number) => new Date(Date.UTC(2026, 10, 20, 12, n));

describe('database round trips per request (driver command monitoring)', () => {
  it('every GET /news page is a keyset query with limit+1 and no skip, at any depth, and one count; the token\'s user is read once, then cached', async () => {
    // 7 articles mentioning BHP (two at the same minute: the id breaks the tie) and 2 that do not
    await ctx.Article.insertMany(
      Array.from({ length: 9 }, (_, i) => ({
        _id: i + 1,
        url: `https://news.example/${i + 1}`,
        title: `Article ${i + 1}`,
        source: 'abc-news',
        source_name: 'ABC News',
        published_at: minute(i === 4 ? 3 : i),
        companies: i < 7 ? ['BHP'] : ['CBA'],
        fetched_at: minute(30),
      })),
    );
    const token = await ctx.tokenFor('user', 'reader@example.com');
    // the first request with the token reads its user; the later ones find it in the cache
    log.reset();
    expect((await request(ctx.app).get('/news?company=BHP&limit=2').set('Authorization', `Bearer ${token}`)).status).toBe(200);
    expect(log.commands.map((c) => `${c.name} ${c.collection}`).sort()).toEqual(['aggregate articles', 'find articles', 'find users']);
    let cursor: string | undefined;
    const seen: number[] = [];
    let pages = 0;
    do {
      log.reset();
      const res = await request(ctx.app)
        .get(`/news?company=BHP&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
        .set('Authorization', `Bearer ${token}`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(7);
      const finds = log.commands.filter((c) => c.name === 'find' && c.collection === 'articles');
      expect(finds).toHaveLength(1);
      expect(finds[0].command.limit).toBe(3);
      // the search fields (several kB an article) are neither sent nor decoded
      expect(finds[0].command.projection).toEqual({ search: 0 });
      const sort = finds[0].command.sort as Map<string, number> | Record<string, number>;
      expect(sort instanceof Map ? [...sort] : Object.entries(sort)).toEqual([['published_at', -1], ['_id', -1]]);
      expect(log.commands.some((c) => 'skip' in c.command)).toBe(false);
      if (pages > 0) expect(JSON.stringify(finds[0].command.filter)).toContain('"published_at":{"$lt"');
      // the total (countDocuments runs as an aggregate) and the page: no credential lookup
      expect(log.commands.map((c) => `${c.name} ${c.collection}`).sort()).toEqual(['aggregate articles', 'find articles']);
      seen.push(...res.body.data.map((a: { id: number }) => a.id));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(4);
    expect(seen).toEqual([7, 6, 5, 4, 3, 2, 1]); // 4 and 5 share a minute: the higher id first
  });

  it('GET /news without filters counts the whole collection from its metadata (no walk over every article), exactly', async () => {
    await ctx.Article.insertMany(
      Array.from({ length: 5 }, (_, i) => ({ _id: i + 1, url: `https://news.example/${i + 1}`, title: `Article ${i + 1}`, source: 'abc-news', source_name: 'ABC News', published_at: minute(i), companies: ['BHP'], fetched_at: minute(30) })),
    );
    const token = await ctx.tokenFor('user', 'all@example.com');
    const get = () => request(ctx.app).get('/news?limit=2').set('Authorization', `Bearer ${token}`);
    await get(); // the token's user, once
    log.reset();
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(5);
    expect(log.commands.map((c) => `${c.name} ${c.collection}`).sort()).toEqual(['count articles', 'find articles']);
    expect(log.commands.find((c) => c.name === 'count')!.command.query).toBeUndefined();
    // a delete counts at once
    await ctx.Article.deleteOne({ _id: 5 });
    expect((await get()).body.total).toBe(4);
  });

  it('sort=relevancy: a bounded window read, a count per word on the first page only, one read of the page by ids', async () => {
    await ctx.Article.insertMany(
      Array.from({ length: 9 }, (_, i) =>
        indexed({ _id: i + 1, url: `https://news.example/${i + 1}`, title: `Lithium ${i % 3 ? 'gold' : 'nickel'} news ${i + 1}`, summary: '', source: 'abc-news', source_name: 'ABC News', published_at: minute(i), companies: [], fetched_at: minute(30) }),
      ),
    );
    const token = await ctx.tokenFor('user', 'ranker@example.com');
    const get = (cursor?: string) => request(ctx.app).get(`/news?q=lithium%20OR%20gold&sort=relevancy&limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`).set('Authorization', `Bearer ${token}`);
    await get(); // the token's user, once
    const articlesCommands = () => log.commands.filter((c) => c.collection === 'articles');
    const names = () => articlesCommands().map((c) => c.name).sort();

    log.reset();
    const first = await get();
    expect(first.status).toBe(200);
    // the total and the two words' document frequencies (countDocuments runs as an aggregate), the corpus size, the window, the page
    expect(names()).toEqual(['aggregate', 'aggregate', 'aggregate', 'count', 'find', 'find']);
    const [window, byIds] = articlesCommands().filter((c) => c.name === 'find');
    expect(window.command.limit).toBe(RANK_WINDOW + 1);
    // streamed in batches: a request holds one batch of text at a time
    expect(window.command.batchSize).toBe(WINDOW_BATCH);
    expect(Object.keys(window.command.projection as object).sort()).toEqual(['published_at', 'search.content', 'search.summary', 'search.title']);
    expect(JSON.stringify(byIds.command.filter)).toBe(JSON.stringify({ _id: { $in: first.body.data.map((a: { id: number }) => a.id) } }));
    expect(byIds.command.projection).toEqual({ search: 0 });
    expect(log.commands.some((c) => 'skip' in c.command)).toBe(false);

    log.reset();
    const second = await get(first.body.next_cursor);
    expect(second.status).toBe(200);
    // the statistics come from the cursor: the total, the window again (by its bounds), the page
    expect(names()).toEqual(['aggregate', 'find', 'find']);
    expect(articlesCommands().find((c) => c.name === 'find')?.command.limit).toBe(WINDOW_READ_MAX);
  });
});

describe('database round trips of a request with an API key (driver command monitoring)', () => {
  const keyed = setupNewsApp({ monitorCommands: true, keyLimits: { daily: 1000, burst: 100, burstWindowSeconds: 600 } });
  let commands: CommandLog;
  beforeAll(() => {
    commands = logCommands(keyed.connection);
  });
  afterAll(() => commands.stop());

  it('a keyed GET /news costs the page\'s commands and one update of the key\'s usage; its key and user are read once, then cached', async () => {
    const token = await keyed.tokenFor('user', 'keyed@example.com');
    const key = (await request(keyed.app).post('/users/me/keys').set('Authorization', `Bearer ${token}`).send({ name: 'bench' })).body.key as string;
    const get = () => request(keyed.app).get('/news?company=BHP&limit=2').set('X-Api-Key', key);
    commands.reset();
    expect((await get()).status).toBe(200);
    // the first: the key, its user (cached by the token above: not read again), the day's usage document made, the page and its total
    expect(commands.commands.map((c) => `${c.name} ${c.collection}`).sort()).toEqual(['aggregate articles', 'find api_keys', 'find articles', 'findAndModify key_usage']);
    for (let n = 0; n < 3; n++) {
      commands.reset();
      const res = await get();
      expect(res.status).toBe(200);
      expect(res.headers.ratelimit).toMatch(new RegExp(`^"daily";r=${1000 - 2 - n};`));
      expect(commands.commands.map((c) => `${c.name} ${c.collection}`).sort()).toEqual(['aggregate articles', 'find articles', 'findAndModify key_usage']);
    }
  });
});

// Its own app and database: the token-user cache lives as long as the app, while each test's
// cleared database hands out user id 1 again, so sharing the app above would let one test's cached
// user answer for the other's.
describe('database round trips of a warmed authenticated read (driver command monitoring)', () => {
  const app = setupNewsApp({ monitorCommands: true });
  let commands: CommandLog;
  beforeAll(() => {
    commands = logCommands(app.connection);
  });
  afterAll(() => commands.stop());

  it('GET /users/me with a token, after one warm-up request, costs at most 2 commands', async () => {
    const token = await app.tokenFor('user', 'me@example.com');
    const me = () => request(app.app).get('/users/me').set('Authorization', `Bearer ${token}`);
    expect((await me()).status).toBe(200); // warm-up: the token's user is read once
    commands.reset();
    const res = await me();
    expect(res.status).toBe(200);
    expect(res.body.email).toBe('me@example.com');
    expect(commands.commands.length).toBeLessThanOrEqual(2);
  });
});
