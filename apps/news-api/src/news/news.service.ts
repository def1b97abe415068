import { createHash } from 'node:crypto';
import { notFound } from '@lib/errors';
import type { CountedPage, KeysetPager, SortKey } from '@lib/paging';
import type { ArticleDoc } from './article.model';
import type { ArticleRepository } from './article.repository';
import type { NewsQuery } from './news.schemas';
import { queryFilter, rankingWords } from './search/query-filter';
import { relevancePager } from './search/relevance-pager';
import { SEARCH_FIELDS } from './search/search-fields';

export type NewsFilter = Pick<NewsQuery, 'q' | 'searchIn' | 'company' | 'source' | 'domains' | 'excludeDomains' | 'language' | 'from' | 'to' | 'sort'>;

const fieldsOf = (query: NewsFilter) => query.searchIn ?? SEARCH_FIELDS;

/** The MongoDB filter of the query's filters (every value already validated). */
function filterOf(query: NewsFilter): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  if (query.company) filter.companies = { $in: query.company };
  if (query.source) filter.source = { $in: query.source };
  if (query.domains || query.excludeDomains) filter.domains = { ...(query.domains && { $in: query.domains }), ...(query.excludeDomains && { $nin: query.excludeDomains }) };
  if (query.language) filter.language = { $in: query.language };
  if (query.from || query.to) filter.published_at = { ...(query.from && { $gte: query.from }), ...(query.to && { $lte: query.to }) };
  if (!query.q) return filter;
  const search = queryFilter(query.q.node, fieldsOf(query));
  return Object.keys(filter).length ? { $and: [filter, search] } : search;
}

const sortKeys = (sort: NewsFilter['sort']): SortKey[] => {
  const direction = sort === 'oldest' ? 1 : -1;
  return [
    { field: 'published_at', direction },
    { field: '_id', direction },
  ];
};

const sorted = (values?: string[]) => [...(values ?? [])].sort();

/** A cursor is only valid with the filters it was made for. */
function cursorScope(query: NewsFilter): string {
  const filters = [
    query.q?.text ?? '',
    sorted(query.searchIn),
    sorted(query.company),
    sorted(query.source),
    sorted(query.domains),
    sorted(query.excludeDomains),
    sorted(query.language),
    query.from?.getTime() ?? '',
    query.to?.getTime() ?? '',
    query.sort,
  ];
  return `news:${createHash('sha256').update(JSON.stringify(filters)).digest('base64url')}`;
}

export function newsService(articles: ArticleRepository, pager: KeysetPager, cursorSecret: string) {
  const ranked = relevancePager(cursorSecret, articles.rankSource);

  return {
    /** One page of the query's matches after its cursor, with the total of matches. */
    page(query: NewsFilter & Pick<NewsQuery, 'limit' | 'cursor'>): Promise<CountedPage<ArticleDoc>> {
      const request = { size: query.limit, cursor: query.cursor };
      const filter = filterOf(query);
      const scope = cursorScope(query);
      if (query.sort === 'relevancy' && query.q) return ranked.page(request, { filter, scope, words: rankingWords(query.q.node), fields: fieldsOf(query) });
      return articles.page(pager, request, { filter, scope, order: sortKeys(query.sort) });
    },

    async get(id: number): Promise<ArticleDoc> {
      const doc = await articles.byId(id);
      if (!doc) throw notFound(`Article ${id} not found`);
      return doc;
    },
  };
}

export type NewsService = ReturnType<typeof newsService>;
