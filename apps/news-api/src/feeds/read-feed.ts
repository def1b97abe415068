import { parseFeed } from '@rowanmanning/feed-parser';
import { companiesMentioned } from '../companies/company-tagger';
import { canonicalUrl } from './canonical-url';
import { FeedError } from './fetch-feed';
import { plainText } from './plain-text';

export const TITLE_MAX = 500;
export const SUMMARY_MAX = 1000;
/** Items read from one feed per fetch; feeds list their newest first. */
export const ITEMS_PER_FEED = 200;

export interface FeedEntry {
  url: string;
  title: string;
  summary: string;
  publishedAt: Date;
  companies: string[];
}

/**
 * The usable entries of an RSS or Atom document: an http(s) link and a title are required; the
 * publication date falls back to the update date, then to `now`. Anything that is not a feed
 * (HTML, broken XML, a DOCTYPE declaring external entities) is a FeedError.
 */
export function readFeed(xml: string, now = new Date()): FeedEntry[] {
  let feed: ReturnType<typeof parseFeed>;
  try {
    feed = parseFeed(xml);
  } catch (err) {
    throw new FeedError(`not a readable RSS or Atom feed (${(err as Error).message})`);
  }
  const entries: FeedEntry[] = [];
  for (const item of feed.items.slice(0, ITEMS_PER_FEED)) {
    const url = canonicalUrl(item.url);
    const title = plainText(item.title, TITLE_MAX);
    if (!url || !title) continue;
    const summary = plainText(item.description ?? item.content, SUMMARY_MAX);
    const date = item.published ?? item.updated;
    const publishedAt = date && !Number.isNaN(date.getTime()) ? date : now;
    entries.push({ url, title, summary, publishedAt, companies: companiesMentioned(`${title}\n${summary}\n${plainText(item.content, 50_000)}`) });
  }
  return entries;
}
