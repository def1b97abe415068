import { logCommands, type CommandLog } from '@lib/testing';
import request from 'supertest';
import { setupNewsApp } from './setup-app';

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
