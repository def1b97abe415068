import { FeedError } from '../src/feeds/feed-error';
import { PARSE_HEAP_MB } from '../src/feeds/isolated-parse';
import { readFeed, SUMMARY_MAX, TITLE_MAX } from '../src/feeds/read-feed';
import { fixture } from './feed-server';

const FIVE_MB = 5 * 1024 * 1024 - 1024;

/** A feed of one item whose description is `html`, passed to the text stripper as it is (CDATA). */
const feedWith = (html: string, title = 'Hostile item about BHP') =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><item><title><![CDATA[${title}]]></title><link>https://hostile.example/1</link><description><![CDATA[${html}]]></description></item></channel></rss>`;

const failureOf = (read: Promise<unknown>) =>
  read.then(
    () => undefined,
    (err: unknown) => (err instanceof FeedError ? err.message : `not a FeedError: ${String(err)}`),
  );

describe('readFeed', () => {
  it('reads the entries of a feed', async () => {
    const entries = await readFeed(fixture('abc.xml'));
    expect(entries.map((e) => e.url)).toEqual([
      'https://www.abc.net.au/news/2026-11-20/bhp-iron-ore-output/101',
      'https://www.abc.net.au/news/2026-11-19/cba-profit/102',
      'https://www.abc.net.au/news/2026-11-18/supermarkets/103',
    ]);
    expect(entries[0]).toEqual({
      url: 'https://www.abc.net.au/news/2026-11-20/bhp-iron-ore-output/101',
      title: 'BHP lifts iron ore output as China demand steadies',
      summary: 'The miner (ASX: BHP) said shipments from the Pilbara rose 4 per cent.',
      publishedAt: new Date('2026-11-19T22:00:00.000Z'),
      companies: ['BHP'],
      content: '',
    });
    // the start of an item's full content, for search
    expect(entries[2].content).toBe('Analysts also mentioned Metcash (ASX code: MTS) and an unknown code ASX: ZZZ.');
  });

  it.each([
    ['<<<<', '<'.repeat(FIVE_MB)],
    ['‹ characters', '‹'.repeat(FIVE_MB / 3)],
    ['unclosed tags', '<a '.repeat(FIVE_MB / 3)],
    ['a <script without its end', `<script>${'x'.repeat(FIVE_MB)}`],
    ['deeply nested markup', '<b><i>'.repeat(FIVE_MB / 6)],
    ['an entity flood', '&amp;'.repeat(FIVE_MB / 5)],
  ])('reads a 5 MB item of %s, its texts cut to their bounds', async (_kind, html) => {
    const [entry] = await readFeed(feedWith(`BHP (ASX: BHP) news ${html}`));
    expect(entry.title).toBe('Hostile item about BHP');
    expect(entry.summary.length).toBeLessThanOrEqual(SUMMARY_MAX);
    expect(entry.summary.startsWith('BHP (ASX: BHP) news')).toBe(true);
    expect(entry.companies).toEqual(['BHP']);
  });

  it('cuts a 5 MB title to its bound', async () => {
    const [entry] = await readFeed(feedWith('summary', `Title ${'<b>word</b> '.repeat(FIVE_MB / 12)}`));
    expect(entry.title.length).toBe(TITLE_MAX);
    expect(entry.title.startsWith('Title word word')).toBe(true);
  });

  it(`abandons a feed whose parsing needs more than ${PARSE_HEAP_MB} MB (millions of attributes), naming why`, async () => {
    const xml = `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><item><title>x</title><description><a ${'b '.repeat(FIVE_MB / 2)}></description></item></channel></rss>`;
    expect(await failureOf(readFeed(xml))).toBe(`reading the feed needed more than ${PARSE_HEAP_MB} MB: abandoned`);
  });

  it('abandons a feed whose parsing outlasts the time budget, naming why', async () => {
    // no worker starts and parses a feed within 1 ms
    expect(await failureOf(readFeed(fixture('abc.xml'), { budgetMs: 1 }))).toBe('reading the feed took longer than 1 ms: abandoned');
  });

  it('stops parsing when the sync stops (shutdown), before or during the parse', async () => {
    const stopped = new AbortController();
    stopped.abort();
    expect(await failureOf(readFeed(fixture('abc.xml'), { signal: stopped.signal }))).toBe('stopped (shutting down)');
    // an entity flood takes the parser most of a second: stopped 50 ms in, its worker is ended
    const stop = new AbortController();
    const reading = failureOf(readFeed(feedWith('&amp;'.repeat(FIVE_MB / 5)), { signal: stop.signal }));
    setTimeout(() => stop.abort(), 50);
    expect(await reading).toBe('stopped (shutting down)');
  });

  it('reports a document that is not a feed', async () => {
    expect(await failureOf(readFeed(fixture('not-a-feed.html')))).toMatch(/^not a readable RSS or Atom feed \(/);
  });
});
