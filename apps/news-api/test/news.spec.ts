import request from 'supertest';
import { setupNewsApp } from './setup-app';
import { indexed } from './stored-articles';

const ctx = setupNewsApp();
let token = '';

const at = (day: number, hour = 0) => new Date(Date.UTC(2026, 10, day, hour));
const ARTICLES = [
  { _id: 1, title: 'BHP lifts iron ore output', summary: 'Shipments rose.', source: 'abc-news', source_name: 'ABC News', published_at: at(20, 1), companies: ['BHP'] },
  { _id: 2, title: 'Banks rally', summary: 'CommBank and Westpac gain on rates.', source: 'abc-news', source_name: 'ABC News', published_at: at(19, 2), companies: ['CBA', 'WBC'] },
  { _id: 3, title: 'Qantas adds flights', summary: 'Record iron-clad bookings.', source: 'guardian-au', source_name: 'The Guardian Australia', published_at: at(18, 3), companies: ['QAN'] },
  { _id: 4, title: 'Iron ore price falls', summary: 'Fortescue and BHP shares slip.', source: 'guardian-au', source_name: 'The Guardian Australia', published_at: at(17, 4), companies: ['BHP', 'FMG'] },
  { _id: 5, title: 'Retail spending steady', summary: 'No listed names.', source: 'abc-news', source_name: 'ABC News', published_at: at(16, 5), companies: [] },
  // same time as 4: the id breaks the tie
  { _id: 6, title: 'Gold miners shine', summary: 'Northern Star at a record (ASX: NST).', source: 'abc-news', source_name: 'ABC News', published_at: at(17, 4), companies: ['NST'] },
].map((a) => indexed({ ...a, url: `https://news.example/${a._id}`, fetched_at: at(21) }));

beforeEach(async () => {
  await ctx.Article.insertMany(ARTICLES);
  token = await ctx.tokenFor('user', 'reader@example.com');
});

const news = (query = '') => request(ctx.app).get(`/news${query}`).set('Authorization', `Bearer ${token}`);
const ids = (res: request.Response) => res.body.data.map((a: { id: number }) => a.id);

describe('GET /news', () => {
  it('lists newest first with a total, in the documented article shape', async () => {
    const res = await news();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 6, has_more: false });
    expect(res.body.next_cursor).toBeUndefined();
    expect(ids(res)).toEqual([1, 2, 3, 6, 4, 5]);
    expect(res.body.data[1]).toEqual({
      id: 2,
      title: 'Banks rally',
      summary: 'CommBank and Westpac gain on rates.',
      url: 'https://news.example/2',
      publisher: { id: 'abc-news', name: 'ABC News' },
      publishedAt: '2026-11-19T02:00:00.000Z',
      companies: [
        { code: 'CBA', name: 'Commonwealth Bank of Australia' },
        { code: 'WBC', name: 'Westpac Banking Corporation' },
      ],
    });
  });

  it('sorts oldest first on request', async () => {
    expect(ids(await news('?sort=oldest'))).toEqual([5, 4, 6, 3, 2, 1]);
  });

  it('searches words in the title or summary, all words, any case', async () => {
    expect(ids(await news('?q=iron'))).toEqual([1, 3, 4]);
    expect(ids(await news('?q=IRON%20ore'))).toEqual([1, 4]);
    expect(ids(await news('?q=commbank'))).toEqual([2]);
    // whole words (iron-clad holds the word iron; "shine" is not "shin"), regular-expression characters plain
    expect((await news('?q=shin')).body).toMatchObject({ total: 0, data: [] });
    expect(ids(await news('?q=ore.*'))).toEqual([1, 4]);
  });

  it('filters by one or more companies (any of them), comma-separated or repeated', async () => {
    expect(ids(await news('?company=BHP'))).toEqual([1, 4]);
    expect(ids(await news('?company=BHP,QAN'))).toEqual([1, 3, 4]);
    expect(ids(await news('?company=CBA&company=NST'))).toEqual([2, 6]);
  });

  it('filters by source and by a date range (a date means the whole UTC day)', async () => {
    expect(ids(await news('?source=guardian-au'))).toEqual([3, 4]);
    expect(ids(await news('?from=2026-11-17&to=2026-11-18'))).toEqual([3, 6, 4]);
    expect(ids(await news('?from=2026-11-19T02:00:00Z'))).toEqual([1, 2]);
    expect(ids(await news('?to=2026-11-17T15:00:00%2B11:00'))).toEqual([6, 4, 5]);
    expect(ids(await news('?source=abc-news&company=BHP,NST&from=2026-11-17&sort=oldest'))).toEqual([6, 1]);
  });

  it('pages with a cursor, keeping the total, until the end', async () => {
    const seen: number[] = [];
    let url: string | undefined = '/news?limit=4';
    while (url) {
      const res: request.Response = await request(ctx.app).get(url).set('Authorization', `Bearer ${token}`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(6);
      seen.push(...ids(res));
      url = res.body.has_more ? `/news?limit=4&cursor=${encodeURIComponent(res.body.next_cursor)}` : undefined;
      if (url) expect(res.headers.link).toBe(`<${url}>; rel="next"`);
    }
    expect(seen).toEqual([1, 2, 3, 6, 4, 5]);
    const filtered = await news('?company=BHP,NST,QAN&limit=2');
    const rest = await news(`?company=BHP,NST,QAN&limit=2&cursor=${encodeURIComponent(filtered.body.next_cursor)}`);
    expect([...ids(filtered), ...ids(rest)]).toEqual([1, 3, 6, 4]);
  });

  it('takes limit up to 200: every item when they fit', async () => {
    const res = await news('?limit=200');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 6, has_more: false });
    expect(ids(res)).toHaveLength(6);
  });

  it('refuses a cursor made for other filters, and an altered one', async () => {
    const first = await news('?company=BHP&limit=1');
    const other = await news(`?company=QAN&limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(other.status).toBe(400);
    expect(other.body.error.code).toBe('invalid_cursor');
    const altered = await news(`?company=BHP&limit=1&cursor=${encodeURIComponent(first.body.next_cursor.replace(/^./, 'x'))}`);
    expect(altered.status).toBe(400);
  });

  it('keeps the token out of the Link header when it came as a query parameter', async () => {
    const res = await request(ctx.app).get(`/news?limit=1&access_token=${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.link).not.toContain('access_token');
  });

  it('links the next page with the same filters (form-encoded), and following the link gives that page', async () => {
    const res = await request(ctx.app).get(`/news?company=BHP,NST&access_token=${token}&limit=1&sort=oldest#top`);
    expect(res.status).toBe(200);
    const cursor = res.body.next_cursor as string;
    expect(res.headers.link).toBe(`</news?company=BHP%2CNST&limit=1&sort=oldest&cursor=${cursor}>; rel="next"`);
    const next = await request(ctx.app).get(res.headers.link.slice(1, -'>; rel="next"'.length)).set('Authorization', `Bearer ${token}`);
    expect(next.status).toBe(200);
    expect([...ids(res), ...ids(next)]).toEqual([4, 6]);
  });

  it.each([
    ['company=bhp', 'company', 'in capitals'],
    ['company=ZZZ', 'company', 'ZZZ is not a company'],
    ['company=', 'company', ''],
    ['source=nobody', 'source', '"nobody" is not a source'],
    ['from=yesterday', 'from', 'ISO 8601'],
    ['to=2026-13-01', 'to', 'ISO 8601'],
    ['from=2026-11-20&to=2026-11-19', 'to', 'must not be before from'],
    ['sort=relevance', 'sort', ''],
    ['sort=relevancy', 'sort', 'relevancy ranks the matches of q: give q too'],
    ['q=.*', 'q', 'at character 1: the query has no word to search for'],
    ['limit=0', 'limit', 'at least 1'],
    ['limit=201', 'limit', 'at most 200'],
    ['q=', 'q', 'must not be empty'],
    ['q=%20%20', 'q', 'must not be empty'],
    ['q[$ne]=x', 'q[$ne]', ''],
    ['page=2', 'page', 'not an accepted parameter'],
  ])('answers 400 naming the parameter for ?%s', async (query, field, message) => {
    const res = await news(`?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toEqual(expect.arrayContaining([{ field, message: expect.stringContaining(message) }]));
  });

  it('needs a signed-in user', async () => {
    const res = await request(ctx.app).get('/news');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
  });
});

describe('GET /news/:id', () => {
  it('answers one article, 404 for an unknown id, 400 for a bad one', async () => {
    const res = await request(ctx.app).get('/news/3').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 3, title: 'Qantas adds flights', publisher: { id: 'guardian-au' }, companies: [{ code: 'QAN', name: 'Qantas Airways' }] });
    const missing = await request(ctx.app).get('/news/99').set('Authorization', `Bearer ${token}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: { code: 'not_found', message: 'Article 99 not found' } });
    expect((await request(ctx.app).get('/news/x1').set('Authorization', `Bearer ${token}`)).status).toBe(400);
    expect((await request(ctx.app).get('/news/3')).status).toBe(401);
  });
});
