import { createHash } from 'node:crypto';
import { notFound } from '@lib/errors';
import { driverCollection, escapeRegex } from '@lib/mongo';
import { collectionSource, type CountedPage, type KeysetPager, type SortKey } from '@lib/paging';
import type { Connection } from 'mongoose';
import { articleModel, type ArticleDoc } from './article.model';
import type { NewsQuery } from './news.schemas';


export type NewsFilter = Pick<NewsQuery, 'q' | 'company' | 'source' | 'from' | 'to' | 'sort'>;

/** The MongoDB filter of the query's filters (every value already validated). */
function filterOf(query: NewsFilter): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  if (query.company) filter.companies = { $in: query.company };
  if (query.source) filter.source = { $in: query.source };
  if (query.from || query.to) filter.published_at = { ...(query.from && { $gte: query.from }), ...(query.to && { $lte: query.to }) };
  const words = query.q?.split(/\s+/).filter(Boolean).slice(0, 10) ?? [];
  if (words.length) {
    filter.$and = words.map((word) => {
      const pattern = { $regex: escapeRegex(word), $options: 'i' };
      return { $or: [{ title: pattern }, { summary: pattern }] };
    });
  }
  return filter;
}

const sortKeys = (sort: NewsFilter['sort']): SortKey[] => {
  const direction = sort === 'oldest' ? 1 : -1;
  return [
    { field: 'published_at', direction },
    { field: '_id', direction },
  ];
};

/** A cursor is only valid with the filters it was made for. */
function cursorScope(query: NewsFilter): string {
  const filters = [query.q ?? '', [...(query.company ?? [])].sort(), [...(query.source ?? [])].sort(), query.from?.getTime() ?? '', query.to?.getTime() ?? '', query.sort];
  return `news:${createHash('sha256').update(JSON.stringify(filters)).digest('base64url')}`;
}

export function newsService(connection: Connection, pager: KeysetPager) {
  const Article = articleModel(connection);
  // Straight on the driver's collection: the filter is built from validated values, so mongoose's
  // query building and casting would only cost time (the documents are the same).
  const articles = collectionSource(driverCollection(Article));

  return {
    /** One page of the query's matches after its cursor, with the total of matches. */
    page: (query: NewsFilter & Pick<NewsQuery, 'limit' | 'cursor'>): Promise<CountedPage<ArticleDoc>> =>
      pager.page({ size: query.limit, cursor: query.cursor }, { from: articles, filter: filterOf(query), scope: cursorScope(query), order: sortKeys(query.sort), count: true }),

    async get(id: number): Promise<ArticleDoc> {
      const doc = await Article.findById(id).lean<ArticleDoc>();
      if (!doc) throw notFound(`Article ${id} not found`);
      return doc;
    },
  };
}

export type NewsService = ReturnType<typeof newsService>;
