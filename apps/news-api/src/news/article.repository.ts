import { driverCollection, idSequence, insertWithSequenceId } from '@lib/mongo';
import { collectionSource, type CountedPage, type KeysetPager, type PageRequest, type SortKey } from '@lib/paging';
import type { Connection, mongo } from 'mongoose';
import { articleModel, type ArticleDoc } from './article.model';
import type { RankedDoc, RankSource } from './search/relevance-pager';
import { SEARCH_VERSION } from './search/search-fields';

type Filter = Record<string, unknown>;

/** What a sync writes of a feed entry on an article, new or known. */
export type ArticleContent = Omit<ArticleDoc, '_id' | 'url' | 'source' | 'source_name' | 'fetched_at'>;

/** An article stored without search fields (or under another SEARCH_VERSION): what the back-fill reads. */
export type UnindexedArticle = Pick<ArticleDoc, '_id' | 'url' | 'title' | 'summary' | 'source' | 'language' | 'search'>;

const UNINDEXED = { 'search.v': { $ne: SEARCH_VERSION } };

/** What an answer shows of an article: all but its search fields (its words and texts folded for search, several kB), which only the search reads. */
const SHOWN = { search: 0 };

/** The articles: the only module that knows their model and collection. */
export function articleRepository(connection: Connection) {
  const Article = articleModel(connection);
  // Straight on the driver's collection for the reads of GET /news: their filters are built from
  // validated values, so mongoose's query building and casting would only cost time.
  const collection = driverCollection(Article);
  const articles = collectionSource(collection, SHOWN);
  const ids = idSequence(connection, 'articles');
  const where = (filter: Filter) => filter as mongo.Filter<ArticleDoc>;

  /** What sort=relevancy reads (search/relevance-pager.ts). */
  const rankSource: RankSource = {
    estimatedCount: () => collection.estimatedDocumentCount(),
    holding: (word, max) => collection.countDocuments(where({ 'search.terms': word }), { limit: max }),
    count: (filter) => collection.countDocuments(where(filter)),
    stream: (filter, fields, limit, batchSize) => {
      const projection = Object.fromEntries([['published_at', 1], ...fields.map((field) => [`search.${field}`, 1])]);
      return collection.find(where(filter), { sort: { published_at: -1, _id: -1 }, limit, projection, batchSize }) as unknown as AsyncIterable<RankedDoc>;
    },
    byIds: (ids) => collection.find({ _id: { $in: ids } }, { projection: SHOWN }).toArray(),
  };

  return {
    /** One keyset page of the filter's matches in `order`, with their total. */
    page: (pager: KeysetPager, request: PageRequest, query: { filter: Filter; scope: string; order: SortKey[] }): Promise<CountedPage<ArticleDoc>> =>
      pager.page(request, { from: articles, ...query, count: true }),
    rankSource,
    byId: (id: number) => Article.findById(id, SHOWN).lean<ArticleDoc>(),

    /** Updates the publisher's stored article of the URL: undefined when it has none. */
    async updateFromFeed(url: string, source: string, content: ArticleContent): Promise<'updated' | 'unchanged' | undefined> {
      const result = await Article.updateOne({ url, source }, { $set: content });
      return result.matchedCount === 0 ? undefined : result.modifiedCount ? 'updated' : 'unchanged';
    },
    urlStored: async (url: string) => (await Article.exists({ url })) !== null,
    /** Inserts under the next id of the `articles` sequence; a URL stored meanwhile is a duplicate-key error (11000). */
    insert: (build: (id: number) => ArticleDoc): Promise<ArticleDoc> => insertWithSequenceId(Article, ids, build),
    countOfSource: (source: string) => Article.countDocuments({ source }),

    /** Up to `limit` articles not indexed for search under SEARCH_VERSION. */
    unindexed: (limit: number) =>
      Article.find(UNINDEXED, { url: 1, title: 1, summary: 1, source: 1, language: 1, 'search.content': 1 }).limit(limit).lean<UnindexedArticle[]>(),
    /** Sets each article's derived fields, if it is still unindexed (a sync may have indexed it meanwhile); one round trip. */
    async setIndexed(updates: Array<{ id: number; fields: Partial<ArticleDoc> }>): Promise<void> {
      await Article.bulkWrite(
        updates.map(({ id, fields }) => ({ updateOne: { filter: { _id: id, ...UNINDEXED }, update: { $set: fields } } })),
        { ordered: false },
      );
    },
  };
}

export type ArticleRepository = ReturnType<typeof articleRepository>;
