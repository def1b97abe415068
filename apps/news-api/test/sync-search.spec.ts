import request from 'supertest';
import { SEARCH_VERSION } from '../src/news/search/search-fields';
import { fixture } from './feed-server';
import { MASTER_KEY, setupNewsApp } from './setup-app';

const ctx = setupNewsApp({
  publishers: (feeds) => [
    { id: 'abc-news', name: 'ABC News', domain: 'abc.net.au', feeds: [feeds.url('/abc.xml')] },
    { id: 'le-monde', name: 'Le Monde', language: 'fr', feeds: [feeds.url('/monde.xml')] },
    { id: 'wiener', name: 'Wiener Zeitung', language: 'de', feeds: [feeds.url('/wien.xml')] },
  ],
});

const rss = (language: string | undefined, items: Array<{ title: string; link: string; description: string; content?: string }>) => `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>T</title><link>https://x.example/</link>${language ? `<language>${language}</language>` : ''}
${items.map((item) => `<item><title>${item.title}</title><link>${item.link}</link><description>${item.description}</description><pubDate>Fri, 20 Nov 2026 09:00:00 +1100</pubDate>${item.content ? `<content:encoded><![CDATA[${item.content}]]></content:encoded>` : ''}</item>`).join('\n')}
</channel></rss>`;

let token = '';
beforeEach(async () => {
  ctx.feeds.reset();
  ctx.feeds.set('/abc.xml', { fixture: 'abc.xml' });
  // an article's language is its publisher's, whatever the feed declares
  ctx.feeds.set('/monde.xml', { body: rss('en-AU', [{ title: 'Le lithium australien séduit', link: 'https://www.lemonde.fr/economie/1', description: 'Les mines de Pilbara.' }]) });
  ctx.feeds.set('/wien.xml', { body: rss('de-AT', [{ title: 'Eisenerz: BHP hebt Förderung an', link: 'https://www.wienerzeitung.at/wirtschaft/1', description: 'Der Bergbaukonzern (ASX: BHP) meldet mehr.', content: '<p>Der Konzern nannte auch <b>Kupfer</b> und Nickel.</p>' }]) });
  token = await ctx.tokenFor('user', 'reader@example.com');
});

const syncNow = () => request(ctx.app).post('/news/sync').send({ access_token: MASTER_KEY }).expect(200);
const news = (query: string) => request(ctx.app).get(`/news?${query}`).set('Authorization', `Bearer ${token}`);
const titles = async (query: string) => {
  const res = await news(query);
  expect(res.status).toBe(200);
  return res.body.data.map((a: { title: string }) => a.title);
};

describe('what a sync stores for search and the filters', () => {
  it('indexes titles, summaries and the start of the content, and records each article\'s domains and language', async () => {
    await syncNow();
    // the content of an item (here only in content:encoded) is searched, never served
    expect(await titles('q=metcash')).toEqual(['Supermarket prices under scrutiny']);
    expect(await titles('q=metcash&searchIn=title,description')).toEqual([]);
    expect(await titles('q=kupfer&searchIn=content')).toEqual(['Eisenerz: BHP hebt Förderung an']);
    expect(await titles('q=forderung')).toEqual(['Eisenerz: BHP hebt Förderung an']);
    expect(await titles('q=%22lithium%20australien%22')).toEqual(['Le lithium australien séduit']);

    expect(await titles('language=fr')).toEqual(['Le lithium australien séduit']);
    expect(await titles('language=de')).toEqual(['Eisenerz: BHP hebt Förderung an']);
    expect(await titles('language=en&q=bhp')).toEqual(['BHP lifts iron ore output as China demand steadies']);
    expect((await titles('domains=lemonde.fr,wienerzeitung.at')).sort()).toEqual(['Eisenerz: BHP hebt Förderung an', 'Le lithium australien séduit']);
    expect((await titles('excludeDomains=abc.net.au'))).toHaveLength(2);

    const stored = await ctx.Article.findOne({ url: 'https://www.wienerzeitung.at/wirtschaft/1' }).lean();
    expect(stored).toMatchObject({
      language: 'de',
      domains: ['www.wienerzeitung.at', 'wienerzeitung.at'],
      search: { v: SEARCH_VERSION, title: 'eisenerz bhp hebt forderung an', summary: 'der bergbaukonzern asx bhp meldet mehr', content: 'der konzern nannte auch kupfer und nickel' },
    });
    expect(stored?.search?.terms).toEqual(expect.arrayContaining(['eisenerz', 'kupfer', 'nickel', 'asx']));
    expect(stored).not.toHaveProperty('content');
  });

  it('re-indexes an article whose text changed on a re-fetch', async () => {
    await syncNow();
    ctx.feeds.set('/abc.xml', { body: fixture('abc.xml').replace('BHP lifts iron ore output', 'BHP cuts copper guidance') });
    await syncNow();
    expect(await titles('q=%22iron%20ore%20output%22')).toEqual([]);
    expect(await titles('q=copper%20guidance')).toEqual(['BHP cuts copper guidance as China demand steadies']);
  });

  it('indexes the articles stored before search (or under an older recipe) at the next sync, keeping what they had', async () => {
    // as a release before search stored them: no search, domains or language fields
    await ctx.connection.db!.collection<Record<string, unknown> & { _id: number }>('articles').insertMany([
      { _id: 901, url: 'https://www.abc.net.au/news/old-1', title: 'Old Lithium story', summary: 'From before search.', source: 'abc-news', source_name: 'ABC News', published_at: new Date('2026-01-01'), companies: [], fetched_at: new Date('2026-01-01') },
      { _id: 902, url: 'https://www.lemonde.fr/old-2', title: 'Vieux article', summary: 'Sur le cuivre.', source: 'le-monde', source_name: 'Le Monde', published_at: new Date('2026-01-02'), companies: [], fetched_at: new Date('2026-01-02') },
      { _id: 903, url: 'https://gone.example/3', title: 'A publisher no longer configured', summary: 'Nickel.', source: 'gone', source_name: 'Gone', published_at: new Date('2026-01-03'), companies: [], fetched_at: new Date('2026-01-03') },
      { _id: 904, url: 'https://www.abc.net.au/news/old-4', title: 'Indexed by an older recipe', summary: '', source: 'abc-news', source_name: 'ABC News', published_at: new Date('2026-01-04'), companies: [], fetched_at: new Date('2026-01-04'), language: 'it', search: { v: SEARCH_VERSION - 1, terms: [], title: '', summary: '', content: 'zinco e rame' } },
    ]);
    expect(await titles('q=lithium')).toEqual([]);
    await syncNow();
    expect(await titles('q=lithium&domains=abc.net.au')).toEqual(['Old Lithium story']);
    expect(await titles('q=cuivre&language=fr')).toEqual(['Vieux article']);
    expect(await titles('q=nickel&language=en')).toEqual(['A publisher no longer configured']);
    // its language and the words of its content are kept
    expect(await titles('q=rame&searchIn=content&language=it')).toEqual(['Indexed by an older recipe']);
    expect(await ctx.Article.countDocuments({ 'search.v': { $ne: SEARCH_VERSION } })).toBe(0);
  });
});

describe('GET /sources', () => {
  it('lists each source with its domain (configured, else its first feed\'s host), language and last sync', async () => {
    const before = await request(ctx.app).get('/sources').set('Authorization', `Bearer ${token}`);
    expect(before.body.data.map((s: { id: string; domain: string; language: string; lastSyncAt: string | null }) => [s.id, s.domain, s.language, s.lastSyncAt])).toEqual([
      ['abc-news', 'abc.net.au', 'en', null],
      ['le-monde', '127.0.0.1', 'fr', null],
      ['wiener', '127.0.0.1', 'de', null],
    ]);
    ctx.feeds.set('/wien.xml', { status: 503 });
    await syncNow();
    const after = await request(ctx.app).get('/sources').set('Authorization', `Bearer ${token}`);
    const [abc, , wiener] = after.body.data;
    expect(abc).toMatchObject({ status: 'ok', lastSyncAt: abc.lastSuccessAt, lastErrorAt: null });
    expect(wiener).toMatchObject({ status: 'failing', lastSyncAt: wiener.lastErrorAt, lastSuccessAt: null });
    expect(Date.parse(abc.lastSyncAt)).toBeGreaterThan(Date.now() - 60_000);
  });
});
