import type { Connection } from 'mongoose';
import { articleModel, type ArticleDoc } from '../article.model';
import { derivedFields } from '../derived-fields';
import { SEARCH_VERSION } from './search-fields';

/** Articles indexed per round trip. */
export const BACKFILL_BATCH = 500;

type Unindexed = Pick<ArticleDoc, '_id' | 'url' | 'title' | 'summary' | 'source' | 'language' | 'search'>;

/**
 * Gives the search, domain and language fields to articles stored without them (by a release
 * before search) or under another SEARCH_VERSION, BACKFILL_BATCH at a time until none is left or
 * `stopped` fires; answers how many it indexed. The content of an article stored before search is
 * not known (only its title and summary are searched); one indexed before keeps its content's words.
 * Idempotent, and safe beside a sync storing articles: each update applies only to an article still
 * unindexed.
 */
export async function indexUnindexedArticles(connection: Connection, languageOf: (source: string) => string, stopped: AbortSignal): Promise<number> {
  const Article = articleModel(connection);
  const unindexed = { 'search.v': { $ne: SEARCH_VERSION } };
  let indexed = 0;
  while (!stopped.aborted) {
    const batch = await Article.find(unindexed, { url: 1, title: 1, summary: 1, source: 1, language: 1, 'search.content': 1 }).limit(BACKFILL_BATCH).lean<Unindexed[]>();
    if (batch.length === 0) break;
    await Article.bulkWrite(
      batch.map((doc) => ({
        updateOne: {
          filter: { _id: doc._id, ...unindexed },
          update: { $set: derivedFields({ url: doc.url, title: doc.title, summary: doc.summary ?? '', content: doc.search?.content, language: doc.language ?? languageOf(doc.source) }) },
        },
      })),
      { ordered: false },
    );
    indexed += batch.length;
  }
  return indexed;
}
