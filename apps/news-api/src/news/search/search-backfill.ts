import type { ArticleRepository } from '../article.repository';
import { derivedFields } from '../derived-fields';

/** Articles indexed per round trip. */
export const BACKFILL_BATCH = 500;

/**
 * Gives the search, domain and language fields to articles stored without them (by a release
 * before search) or under another SEARCH_VERSION, BACKFILL_BATCH at a time until none is left or
 * `stopped` fires; answers how many it indexed. The content of an article stored before search is
 * not known (only its title and summary are searched); one indexed before keeps its content's words.
 * Idempotent, and safe beside a sync storing articles: each update applies only to an article still
 * unindexed.
 */
export async function indexUnindexedArticles(articles: ArticleRepository, languageOf: (source: string) => string, stopped: AbortSignal): Promise<number> {
  let indexed = 0;
  while (!stopped.aborted) {
    const batch = await articles.unindexed(BACKFILL_BATCH);
    if (batch.length === 0) break;
    await articles.setIndexed(
      batch.map((doc) => ({
        id: doc._id,
        fields: derivedFields({ url: doc.url, title: doc.title, summary: doc.summary ?? '', content: doc.search?.content, language: doc.language ?? languageOf(doc.source) }),
      })),
    );
    indexed += batch.length;
  }
  return indexed;
}
