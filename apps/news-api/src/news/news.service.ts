import { notFound } from '@lib/errors';
import { driverCollection, escapeRegex } from '@lib/mongo';
import { keysetAfter, sortOf, takePage, type SortKey } from '@lib/paging';
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

export function newsService(connection: Connection) {
  const Article = articleModel(connection);
  const articles = driverCollection(Article);

  return {
    /**
     * One page after the `after` position ([publishedAt, id]), fetched `limit + 1`, with the total of
     * matches. Straight on the driver's collection: the filter is built from validated values, so
     * mongoose's query building and casting would only cost time (the documents are the same).
     */
    async page(query: NewsFilter, limit: number, after?: [Date, number]) {
      const filter = filterOf(query);
      const keys = sortKeys(query.sort);
      const pageFilter = after ? { $and: [filter, keysetAfter(keys, after)] } : filter;
      const [total, fetched] = await Promise.all([
        articles.countDocuments(filter),
        articles.find(pageFilter, { sort: sortOf(keys), limit: limit + 1 }).toArray(),
      ]);
      return { total, ...takePage(fetched, limit) };
    },

    async get(id: number): Promise<ArticleDoc> {
      const doc = await Article.findById(id).lean<ArticleDoc>();
      if (!doc) throw notFound(`Article ${id} not found`);
      return doc;
    },
  };
}

export type NewsService = ReturnType<typeof newsService>;
