import { setImmediate as nextTurn } from 'node:timers/promises';
import { companiesMentioned } from '../companies/company-tagger';
import { CONTENT_SEARCH_MAX } from '../news/search/search-fields';
import { canonicalUrl } from './canonical-url';
import { parseIsolated } from './isolated-parse';
import { plainText, rawPrefixLength } from './plain-text';

export const TITLE_MAX = 500;
export const SUMMARY_MAX = 1000;
/** Characters of an item's content searched for company names (it is not stored). */
export const CONTENT_SEARCHED = 50_000;
/** Items read from one feed per fetch; feeds list their newest first. */
export const ITEMS_PER_FEED = 200;
/** Time to parse one feed; past it the feed is abandoned (its error recorded) and the sync goes on. */
export const PARSE_BUDGET_MS = 10_000;

export interface FeedEntry {
  url: string;
  title: string;
  summary: string;
  publishedAt: Date;
  companies: string[];
  /** The start of the item's full content as plain text (for search; not stored as such). */
  content: string;
}

export interface ReadFeedOptions {
  now?: Date;
  budgetMs?: number;
  signal?: AbortSignal;
}

/**
 * The usable entries of an RSS or Atom document: an http(s) link and a title are required; the
 * publication date falls back to the update date, then to `now`. Anything that is not a feed
 * (HTML, broken XML, a DOCTYPE declaring external entities), or that needs more than the parse
 * budget's time or the parser's heap, is a FeedError. Each text is made from a bounded prefix of
 * the item's raw text, and the event loop is yielded between items.
 */
export async function readFeed(xml: string, { now = new Date(), budgetMs = PARSE_BUDGET_MS, signal }: ReadFeedOptions = {}): Promise<FeedEntry[]> {
  const items = await parseIsolated(xml, {
    budgetMs,
    signal,
    maxItems: ITEMS_PER_FEED,
    cut: { title: rawPrefixLength(TITLE_MAX), description: rawPrefixLength(SUMMARY_MAX), content: rawPrefixLength(CONTENT_SEARCHED) },
  });
  const entries: FeedEntry[] = [];
  for (const item of items) {
    await nextTurn();
    const url = canonicalUrl(item.url);
    const title = plainText(item.title, TITLE_MAX);
    if (!url || !title) continue;
    const summary = plainText(item.description ?? item.content, SUMMARY_MAX);
    const date = item.published ?? item.updated;
    const publishedAt = date === null ? now : new Date(date);
    const content = plainText(item.content, CONTENT_SEARCHED);
    // search keeps the first CONTENT_SEARCH_MAX characters of words: twice that of text is plenty
    entries.push({ url, title, summary, publishedAt, companies: companiesMentioned(`${title}\n${summary}\n${content}`), content: content.slice(0, 2 * CONTENT_SEARCH_MAX) });
  }
  return entries;
}
