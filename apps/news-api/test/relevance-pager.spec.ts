import { articleRepository } from '../src/news/article.repository';
import { parseSearchQuery } from '../src/news/search/query-syntax';
import { queryFilter, rankingWords } from '../src/news/search/query-filter';
import { relevancePager } from '../src/news/search/relevance-pager';
import { SEARCH_FIELDS } from '../src/news/search/search-fields';
import { setupNewsApp } from './setup-app';
import { indexed } from './stored-articles';

const ctx = setupNewsApp();

const day = (n: number) => new Date(Date.UTC(2026, 10, 1) + n * 86_400_000);
const article = (id: number, title: string, options: { summary?: string; source?: string; published?: Date } = {}) =>
  indexed({
    _id: id,
    url: `https://www.abc.net.au/news/${id}`,
    title,
    summary: options.summary ?? '',
    source: options.source ?? 'abc-news',
    source_name: 'ABC News',
    published_at: options.published ?? day(id),
    companies: [],
    fetched_at: day(0),
  });

/** Every page of `q` in `source` with pages of `size`, through the pager with windows of `window`; the ids in order. */
async function pages(q: string, size: number, window: number, options: { source?: string; cursor?: string; between?: () => Promise<void> } = {}) {
  const pager = relevancePager('test-secret', articleRepository(ctx.connection).rankSource, { window });
  const node = parseSearchQuery(q);
  const filter = { $and: [{ source: options.source ?? 'abc-news' }, queryFilter(node, SEARCH_FIELDS)] };
  const query = { filter, words: rankingWords(node), fields: SEARCH_FIELDS, scope: `test:${q}` };
  const seen: number[][] = [];
  let cursor = options.cursor;
  let totals = new Set<number>();
  do {
    const page = await pager.page({ size, cursor }, query);
    seen.push(page.items.map((item) => item._id));
    totals = totals.add(page.count);
    cursor = page.next;
    if (cursor) await options.between?.();
  } while (cursor && seen.length < 50);
  return { ids: seen.flat(), pages: seen, totals: [...totals] };
}

describe('relevance pages in windows of the newest matches', () => {
  // titles of 6 words holding "lithium" c times, published on day id: windows of 3 are [10, 9, 8], [7, 6, 5], [4, 3, 2], [1]
  const COUNTS = [1, 3, 2, 1, 2, 3, 1, 2, 3, 1];
  beforeEach(async () => {
    await ctx.Article.insertMany(COUNTS.map((c, i) => article(i + 1, [...Array(c).fill('lithium'), ...Array(6 - c).fill('news')].join(' '))));
  });
  // within each window: more mentions first, the newer first among equals
  const RANKED = [9, 8, 10, 6, 5, 7, 2, 3, 4, 1];

  it.each([1, 2, 3, 4, 10])('ranks each window of 3 and serves them in order with pages of %i, each article once, the total on every page', async (size) => {
    const result = await pages('lithium', size, 3);
    expect(result.ids).toEqual(RANKED);
    expect(result.totals).toEqual([10]);
    expect(result.pages.slice(0, -1).every((page) => page.length === size)).toBe(true);
  });

  it('ends on the last article: no empty last page', async () => {
    const result = await pages('lithium', 5, 3);
    expect(result.pages).toEqual([RANKED.slice(0, 5), RANKED.slice(5)]);
  });

  it('never repeats or skips an article stored before its first page while others are added, newer, older or inside an open window', async () => {
    let next = 100;
    const add = async () => {
      const id = next++;
      // newer than all, between two seen ones, older than all; each mentioning lithium three times
      const published = [day(20), new Date(day(9).getTime() - 3_600_000), day(-5)][id % 3];
      await ctx.Article.create(article(id, 'lithium lithium lithium news news news', { published }));
    };
    const result = await pages('lithium', 2, 3, { between: add });
    expect(result.ids.filter((id) => id < 100)).toEqual(RANKED);
    expect(new Set(result.ids).size).toBe(result.ids.length);
  });
});

describe('relevance cursors keep the corpus statistics of their first page', () => {
  beforeEach(async () => {
    await ctx.Article.insertMany([
      article(1, 'Market update today', { summary: 'Analysts said gold was among the few movers in a quiet session as traders waited for the central bank decision.' }),
      article(2, 'Lithium lithium boom'),
      article(3, 'Lithium stocks'),
      article(4, 'Copper news'),
    ]);
  });

  it('pages on in the first page\'s order although new articles change the words\' document frequencies', async () => {
    // gold is rare, lithium common: the gold article first
    const before = await pages('gold OR lithium', 10, 1000);
    expect(before.ids).toEqual([1, 2, 3]);
    const first = relevancePager('test-secret', articleRepository(ctx.connection).rankSource);
    const node = parseSearchQuery('gold OR lithium');
    const query = { filter: { $and: [{ source: 'abc-news' }, queryFilter(node, SEARCH_FIELDS)] }, words: rankingWords(node), fields: SEARCH_FIELDS, scope: 'test:gold OR lithium' };
    const page1 = await first.page({ size: 1 }, query);
    expect(page1.items.map((item) => item._id)).toEqual([1]);

    // 20 articles of another source make gold common (they do not match: their source is filtered out)
    await ctx.Article.insertMany(Array.from({ length: 20 }, (_, i) => article(50 + i, 'Gold gold', { source: 'guardian-au' })));
    // a new first page now ranks lithium first …
    expect((await pages('gold OR lithium', 10, 1000)).ids).toEqual([2, 3, 1]);
    // … but the cursor of the old first page goes on with the old numbers: nothing skipped
    expect((await pages('gold OR lithium', 1, 1000, { cursor: page1.next })).ids).toEqual([2, 3]);
  });
});
