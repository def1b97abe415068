import { CursorCodec, invalidCursor, keysetAfter, type CountedPage, type PageRequest, type SortKey } from '@lib/paging';
import { z } from '@lib/validation';
import type { ArticleDoc } from '../article.model';
import { bm25Scorer, type CorpusStats } from './bm25';
import { MAX_QUERY_WORDS } from './query-syntax';
import type { SearchField } from './search-fields';

/**
 * Matches ranked at a time: the newest RANK_WINDOW matches of a query are scored and ranked, then
 * the next RANK_WINDOW by recency, and so on, so a page never reads more than a window or two
 * however many articles match. A window once opened is read again by its bounds on later pages, at
 * most WINDOW_READ_MAX articles (articles stored into it meanwhile can make it grow).
 */
export const RANK_WINDOW = 1_000;
export const WINDOW_READ_MAX = 2 * RANK_WINDOW;
/** Articles per batch of a window's read: what a request holds of their text at once (about 1 MB at the stored bounds). */
export const WINDOW_BATCH = 250;
/** Articles counted per word for its document frequency: a word in more is weighted as if in this many. */
export const DF_COUNT_MAX = 20_000;

type Filter = Record<string, unknown>;

/** The fields of an article that ranking reads; `search` holds only the searched fields. */
export type RankedDoc = Pick<ArticleDoc, '_id' | 'published_at'> & { search?: Partial<Record<SearchField, string>> };

/** The reads of ranking, on the articles (article.repository.ts). */
export interface RankSource {
  /** Articles stored, from the collection's metadata. */
  estimatedCount(): Promise<number>;
  /** Articles whose search terms hold the word, counted up to `max`. */
  holding(word: string, max: number): Promise<number>;
  count(filter: Filter): Promise<number>;
  /** The filter's articles newest first (id breaking ties), at most `limit`, read in batches of `batchSize`: their date and the search fields named. */
  stream(filter: Filter, fields: readonly SearchField[], limit: number, batchSize: number): AsyncIterable<RankedDoc>;
  /** The articles of the ids, in any order. */
  byIds(ids: number[]): Promise<ArticleDoc[]>;
}

export interface RelevanceQuery {
  filter: Filter;
  /** The words that rank (not under a NOT), folded. */
  words: string[];
  fields: readonly SearchField[];
  /** What the cursor is bound to (the filters and the sort). */
  scope: string;
}

/** Where an article stands in recency order: publication time (ms) and id. */
const recencyKey = z.tuple([z.number().int(), z.number().int()]);
type RecencyKey = z.output<typeof recencyKey>;

/**
 * What a relevance cursor carries, signed: the window (after `s`, down to `e` included; `e` null
 * when the next window is yet to be opened), whether windows follow it (`m`), the rank of the last
 * article served (`k`: score, time, id), and the corpus statistics of the first page (`n`, `d`),
 * so that every page scores with the same numbers.
 */
const cursorSchema = z.strictObject({
  s: recencyKey.nullable(),
  e: recencyKey.nullable(),
  m: z.boolean(),
  k: z.tuple([z.number().nonnegative(), z.number().int(), z.number().int()]).nullable(),
  n: z.number().int().nonnegative(),
  d: z.array(z.number().int().nonnegative()).max(MAX_QUERY_WORDS),
});
type Cursor = z.output<typeof cursorSchema>;

interface Ranked {
  score: number;
  time: number;
  id: number;
}
/** Best score first, then the newer, then the higher id. */
const byRank = (a: Ranked, b: Ranked) => b.score - a.score || b.time - a.time || b.id - a.id;

const RECENCY: SortKey[] = [
  { field: 'published_at', direction: -1 },
  { field: '_id', direction: -1 },
];
const olderThan = ([time, id]: RecencyKey): Filter => keysetAfter(RECENCY, [new Date(time), id]);
const notOlderThan = ([time, id]: RecencyKey): Filter => ({ $or: [{ published_at: { $gt: new Date(time) } }, { published_at: new Date(time), _id: { $gte: id } }] });
const within = (...parts: Filter[]): Filter => {
  const present = parts.filter((part) => Object.keys(part).length > 0);
  return present.length === 1 ? present[0] : { $and: present };
};

/**
 * Pages of `sort=relevancy`: BM25 scores, recency breaking ties, in windows of the newest
 * RANK_WINDOW matches (see above). The cursor carries the window, the last rank served and the
 * corpus statistics, so pages neither skip nor repeat an article while the corpus changes.
 */
export function relevancePager(secret: string, articles: RankSource, options: { window?: number } = {}) {
  const cursors = new CursorCodec(secret);
  const window = options.window ?? RANK_WINDOW;
  const readMax = (WINDOW_READ_MAX / RANK_WINDOW) * window;

  async function corpusStats(words: string[]): Promise<CorpusStats> {
    const [articleCount, holding] = await Promise.all([
      articles.estimatedCount(),
      Promise.all(words.map((word) => articles.holding(word, DF_COUNT_MAX))),
    ]);
    return { articles: articleCount, holding };
  }

  /**
   * The window's articles scored as they stream in, newest first, at most `limit`: only their rank
   * is kept, so a request holds one batch of their text at a time, whatever the window's size.
   */
  async function scoreWindow(query: RelevanceQuery, score: (search: RankedDoc['search']) => number, start: RecencyKey | null, end: RecencyKey | null, limit: number): Promise<Ranked[]> {
    const range = within(query.filter, start ? olderThan(start) : {}, end ? notOlderThan(end) : {});
    const docs = articles.stream(range, query.fields, limit, WINDOW_BATCH);
    const ranked: Ranked[] = [];
    for await (const doc of docs) ranked.push({ score: score(doc.search), time: doc.published_at.getTime(), id: doc._id });
    return ranked;
  }

  function decode(cursor: string, query: RelevanceQuery): Cursor {
    const decoded = cursors.decode(cursor, cursorSchema, query.scope);
    if (decoded.d.length !== query.words.length || (decoded.e === null && (decoded.s === null || decoded.k !== null))) throw invalidCursor();
    return decoded;
  }

  async function page(request: PageRequest, query: RelevanceQuery): Promise<CountedPage<ArticleDoc>> {
    const given = request.cursor === undefined ? undefined : decode(request.cursor, query);
    const [count, stats] = await Promise.all([
      articles.count(query.filter),
      given ? { articles: given.n, holding: given.d } : corpusStats(query.words),
    ]);
    const score = bm25Scorer(query.words, stats, query.fields);
    let state: Omit<Cursor, 'n' | 'd'> = given ?? { s: null, e: null, m: false, k: null };
    const served: Ranked[] = [];
    let next: Omit<Cursor, 'n' | 'd'> | undefined;
    // a window opened with matches holds at least a page (RANK_WINDOW ≥ the largest page), so a
    // page reads the rest of one window and at most one more (a smaller window, in tests, may take more)
    const maxWindows = Math.max(2, Math.ceil(request.size / window) + 1);
    for (let windows = 0; ; windows++) {
      if (windows === maxWindows) {
        next = state; // (not reached with RANK_WINDOW: a short page, the next window still to open)
        break;
      }
      let docs: Ranked[];
      let { e: end, m: more } = state;
      if (end === null) {
        docs = await scoreWindow(query, score, state.s, null, window + 1);
        more = docs.length > window;
        docs = docs.slice(0, window);
        if (docs.length === 0) break;
        end = [docs[docs.length - 1].time, docs[docs.length - 1].id];
      } else {
        docs = await scoreWindow(query, score, state.s, end, readMax);
      }
      const last = state.k && { score: state.k[0], time: state.k[1], id: state.k[2] };
      const ranked = docs.sort(byRank).filter((item) => !last || byRank(last, item) < 0);
      const wanted = request.size - served.length;
      served.push(...ranked.slice(0, wanted));
      if (ranked.length > wanted) {
        const at = served[served.length - 1];
        next = { s: state.s, e: end, m: more, k: [at.score, at.time, at.id] };
        break;
      }
      if (!more) break;
      state = { s: end, e: null, m: false, k: null };
      if (served.length === request.size) {
        next = state;
        break;
      }
    }
    const items = await fetchInOrder(served.map((item) => item.id));
    const cursor = next && cursors.encode({ ...next, n: stats.articles, d: stats.holding }, query.scope);
    return { items, count, ...(cursor !== undefined && { next: cursor }) };
  }

  /** The whole articles of the page, in its order (one read by ids). */
  async function fetchInOrder(ids: number[]): Promise<ArticleDoc[]> {
    if (ids.length === 0) return [];
    const docs = await articles.byIds(ids);
    const byId = new Map<number, ArticleDoc>(docs.map((doc) => [doc._id, doc]));
    return ids.map((id) => byId.get(id)).filter((doc): doc is ArticleDoc => doc !== undefined);
  }

  return { page };
}

export type RelevancePager = ReturnType<typeof relevancePager>;
