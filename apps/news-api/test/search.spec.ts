import request from 'supertest';
import { setupNewsApp } from './setup-app';
import { indexed } from './stored-articles';

const ctx = setupNewsApp();
let token = '';

const day = (n: number) => new Date(Date.UTC(2026, 10, n, 3));
/** About 250 words without the searched ones: a content of typical length. */
const LONG = Array.from({ length: 249 }, (_, i) => ['market', 'shares', 'traders', 'index', 'session'][i % 5]).join(' ');

const ARTICLES = [
  { _id: 1, day: 10, url: 'https://www.abc.net.au/news/1', title: 'Lithium prices surge as lithium demand grows', summary: 'Battery makers buy more.' },
  { _id: 2, day: 11, url: 'https://www.smh.com.au/business/2', title: 'Lithium miners report record output', summary: 'Pilbara producers ship more.' },
  { _id: 3, day: 12, url: 'https://www.abc.net.au/news/3', title: 'Gold price steady', summary: 'Analysts also watched lithium and nickel stocks, with the broader market flat over a long and quiet session of trading.' },
  { _id: 4, day: 13, url: 'https://stockhead.com.au/4', title: 'Market wrap', summary: 'Shares closed higher.', content: `${LONG} lithium` },
  { _id: 5, day: 14, url: 'https://www.smh.com.au/business/5', title: 'Lithium miners report record output', summary: 'Pilbara producers ship more.' },
  { _id: 6, day: 15, url: 'https://news.abc.net.au/6', title: 'Iron ore slips; Rio Tinto’s shipments steady', summary: 'BHP and Rio Tinto kept guidance. Café owners in Perth are unaffected.' },
  { _id: 7, day: 16, url: 'https://www.lesechos.fr/7', title: 'Le prix du lithium recule', summary: 'Les producteurs australiens ralentissent.', language: 'fr' },
  { _id: 8, day: 9, url: 'https://www.theguardian.com/au/8', title: 'Copper and lithium rally', summary: 'Copper rose.' },
].map(({ day: d, ...a }) =>
  indexed({ ...a, source: a._id % 2 ? 'abc-news' : 'guardian-au', source_name: a._id % 2 ? 'ABC News' : 'The Guardian Australia', published_at: day(d), companies: [], fetched_at: day(20) }),
);

beforeEach(async () => {
  await ctx.Article.insertMany(ARTICLES);
  token = await ctx.tokenFor('user', 'reader@example.com');
});

const news = (query: string) => request(ctx.app).get(`/news?${query}`).set('Authorization', `Bearer ${token}`);
const ids = (res: request.Response) => {
  expect(res.status).toBe(200);
  return res.body.data.map((a: { id: number }) => a.id);
};
const q = (text: string, more = '') => news(`q=${encodeURIComponent(text)}${more}`);

describe('GET /news?q= — the query language', () => {
  it('matches whole words in any case and without accents; all words by default', async () => {
    expect(ids(await q('LITHIUM miners'))).toEqual([5, 2]);
    expect(ids(await q('cafe'))).toEqual([6]);
    expect(ids(await q('CAFÉ perth'))).toEqual([6]);
    expect(ids(await q('lithiu'))).toEqual([]);
  });

  it('matches a phrase only with its words side by side, in order, within one field', async () => {
    expect(ids(await q('"rio tinto"'))).toEqual([6]);
    expect(ids(await q('"tinto rio"'))).toEqual([]);
    // "steady" ends the title and "bhp" starts the summary: not a phrase across fields
    expect(ids(await q('"steady bhp"'))).toEqual([]);
    expect(ids(await q('"steady" bhp'))).toEqual([6]);
    // a word that folds to several is a phrase; a possessive folds away
    expect(ids(await q('Rio-Tinto'))).toEqual([6]);
    expect(ids(await q('Tinto-Rio'))).toEqual([]);
    expect(ids(await q("tinto's"))).toEqual([6]);
  });

  it('excludes with - and NOT, combines with AND, OR and parentheses', async () => {
    expect(ids(await q('lithium -copper -miners'))).toEqual([7, 4, 3, 1]);
    expect(ids(await q('lithium NOT (miners OR copper OR prix)'))).toEqual([4, 3, 1]);
    expect(ids(await q('(gold OR copper) NOT rally'))).toEqual([3]);
    expect(ids(await q('gold OR copper AND rally'))).toEqual([3, 8]);
    expect(ids(await q('+lithium +surge'))).toEqual([1]);
    expect(ids(await q('-lithium'))).toEqual([6]);
  });

  it('searchIn chooses the fields: title, description (the summary), content', async () => {
    expect(ids(await q('lithium', '&searchIn=title'))).toEqual([7, 5, 2, 1, 8]);
    expect(ids(await q('lithium', '&searchIn=description'))).toEqual([3]);
    expect(ids(await q('lithium', '&searchIn=content'))).toEqual([4]);
    expect(ids(await q('lithium', '&searchIn=title,content'))).toEqual([7, 5, 4, 2, 1, 8]);
    expect(ids(await q('"nickel stocks"', '&searchIn=title'))).toEqual([]);
    expect(ids(await q('"nickel stocks"', '&searchIn=description'))).toEqual([3]);
    expect(ids(await q('lithium'))).toEqual([7, 5, 4, 3, 2, 1, 8]);
  });

  it.each([
    ['q=(lithium%20OR%20gold', 'q', 'at character 1: this "(" is not closed'],
    ['q=lithium%20AND', 'q', 'at character 9: AND needs a word, a "phrase" or "(" after it, not the end of the query'],
    ['q=%22rio%20tinto', 'q', 'at character 1: this quote is not closed'],
    ['q=gold%20-%20copper', 'q', 'at character 6: "-" must be followed directly by a word'],
    [`q=${'gold%20'.repeat(21)}`, 'q', 'at character 101: more than 20 words'],
    [`q=${'a'.repeat(501)}`, 'q', 'at character 501: the query is longer than 500 characters'],
    [`q=${'a'.repeat(2001)}`, 'q', 'must be at most 500 characters'],
    ['q=lithium&searchIn=summary', 'searchIn', '"summary" is not a field to search: use title, description (the summary) or content'],
    ['q=lithium&searchIn=', 'searchIn', '"" is not a field to search'],
  ])('answers 400 naming q and the position for ?%s', async (query, field, message) => {
    const res = await news(query);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'validation_failed', message: expect.stringContaining(`${field}: ${message}`) });
    expect(res.body.error.fields).toEqual([{ field, message: expect.stringContaining(message) }]);
  });
});

describe('GET /news?sort=relevancy', () => {
  it('ranks by BM25: a word twice beats once, a short title beats a long one, title beats summary beats content; the newer first among equals', async () => {
    const res = await q('lithium', '&sort=relevancy');
    expect(res.body).toMatchObject({ total: 7, has_more: false });
    // 1: twice in its title; 8: once in a title of 4 words; 7, 5 and 2: once in titles of 5 words
    // (equal scores: the newer first); 3: once in a summary; 4: once in a content of typical length
    expect(ids(res)).toEqual([1, 8, 7, 5, 2, 3, 4]);
  });

  it('weighs a rare word above a common one, and an article holding more of the words above one holding fewer', async () => {
    // gold is in 1 article of 8, lithium in 7: the gold article comes first
    expect(ids(await q('lithium OR gold', '&sort=relevancy'))).toEqual([3, 1, 8, 7, 5, 2, 4]);
    // 8 holds copper (rare) and lithium; 1 holds lithium twice
    expect(ids(await q('copper OR lithium', '&sort=relevancy')).slice(0, 2)).toEqual([8, 1]);
    // a word's weight saturates: a rare word once in a title beats a commoner one 51 times in 4's title and content
    expect(ids(await q('price OR market', '&sort=relevancy'))).toEqual([3, 4]);
  });

  it('pages with a cursor through the ranked order, each article once, with a Link to the next page', async () => {
    const seen: number[] = [];
    let url: string | undefined = `/news?q=lithium&sort=relevancy&limit=3`;
    let pages = 0;
    while (url) {
      const res: request.Response = await request(ctx.app).get(url).set('Authorization', `Bearer ${token}`);
      expect(res.body.total).toBe(7);
      seen.push(...ids(res));
      pages++;
      url = res.body.has_more ? `/news?q=lithium&sort=relevancy&limit=3&cursor=${encodeURIComponent(res.body.next_cursor)}` : undefined;
      if (url) expect(res.headers.link).toBe(`<${url}>; rel="next"`);
    }
    expect(pages).toBe(3);
    expect(seen).toEqual([1, 8, 7, 5, 2, 3, 4]);
  });

  it('keeps the order of its first page while articles are added: no repeat, no skip', async () => {
    const first = await q('lithium OR gold', '&sort=relevancy&limit=2');
    expect(ids(first)).toEqual([3, 1]);
    // new gold and lithium articles, older and newer than the matches: they change both words'
    // frequencies (the cursor keeps the first page's) and may show up, but no first article twice or never
    await ctx.Article.insertMany(
      Array.from({ length: 30 }, (_, i) =>
        indexed({ _id: 100 + i, url: `https://x.example/${i}`, title: i % 2 ? 'Gold gold gold' : 'Lithium lithium', summary: '', source: 'abc-news', source_name: 'ABC News', published_at: day(i % 3 ? 1 : 30), companies: [], fetched_at: day(20) }),
      ),
    );
    const rest: number[] = [];
    let cursor: string | undefined = first.body.next_cursor;
    while (cursor) {
      const res = await q('lithium OR gold', `&sort=relevancy&limit=2&cursor=${encodeURIComponent(cursor)}`);
      rest.push(...ids(res));
      cursor = res.body.next_cursor;
    }
    const original = [8, 7, 5, 2, 4];
    expect(rest.filter((id) => id < 100)).toEqual(original);
    expect(new Set(rest).size).toBe(rest.length);
  });

  it('refuses a cursor of another sort or other filters, and an altered one', async () => {
    const relevant = await q('lithium', '&sort=relevancy&limit=1');
    const newest = await q('lithium', '&limit=1');
    const cursor = encodeURIComponent(relevant.body.next_cursor);
    for (const query of [`q=lithium&sort=newest&limit=1&cursor=${cursor}`, `q=gold&sort=relevancy&limit=1&cursor=${cursor}`, `q=lithium&searchIn=title&sort=relevancy&limit=1&cursor=${cursor}`, `q=lithium&sort=relevancy&limit=1&cursor=${encodeURIComponent(newest.body.next_cursor)}`, `q=lithium&sort=relevancy&limit=1&cursor=x${cursor}`]) {
      const res = await news(query);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_cursor');
    }
  });

  it('with only exclusions there is nothing to rank: newest first', async () => {
    expect(ids(await q('-lithium -gold', '&sort=relevancy'))).toEqual([6]);
    expect(ids(await q('NOT copper', '&sort=relevancy&searchIn=title'))).toEqual([7, 6, 5, 4, 3, 2, 1]);
  });
});

describe('GET /news: domains, excludeDomains, language', () => {
  it('matches the link host or any parent domain, in any letter case', async () => {
    expect(ids(await news('domains=abc.net.au'))).toEqual([6, 3, 1]);
    expect(ids(await news('domains=www.abc.net.au'))).toEqual([3, 1]);
    expect(ids(await news('domains=ABC.net.au,smh.com.au'))).toEqual([6, 5, 3, 2, 1]);
    expect(ids(await news('excludeDomains=abc.net.au,lesechos.fr'))).toEqual([5, 4, 2, 8]);
    expect(ids(await news('domains=com.au'))).toEqual([5, 4, 2]);
    expect(ids(await news('domains=com.au,net.au&excludeDomains=news.abc.net.au'))).toEqual([5, 4, 3, 2, 1]);
    expect(ids(await news('domains=example.com'))).toEqual([]);
  });

  it('filters by language, and combines every filter with q', async () => {
    expect(ids(await news('language=fr'))).toEqual([7]);
    expect(ids(await news('language=en,de&q=lithium'))).toEqual([5, 4, 3, 2, 1, 8]);
    expect(ids(await news('q=lithium&source=abc-news,guardian-au&domains=smh.com.au,abc.net.au&language=en&from=2026-11-11&sort=relevancy'))).toEqual([5, 2, 3]);
  });

  it.each([
    ['domains=abc', 'domains', '"abc" is not a domain name such as abc.net.au'],
    ['domains=abc.net.au/news', 'domains', 'is not a domain name'],
    ['domains=abc.net.au.', 'domains', 'is not a domain name'],
    ['domains=https://abc.net.au', 'domains', 'is not a domain name'],
    ['excludeDomains=-x.com', 'excludeDomains', 'is not a domain name'],
    ['language=EN', 'language', '"EN" is not an ISO 639-1 language code in lower case'],
    ['language=xx', 'language', '"xx" is not an ISO 639-1'],
    ['language=eng', 'language', '"eng" is not an ISO 639-1'],
    [`domains=${Array.from({ length: 21 }, (_, i) => `d${i}.com`).join(',')}`, 'domains', 'must list at most 20 values'],
  ])('answers 400 naming the parameter for ?%s', async (query, field, message) => {
    const res = await news(query);
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toEqual(expect.arrayContaining([{ field, message: expect.stringContaining(message) }]));
  });
});
