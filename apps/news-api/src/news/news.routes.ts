import { linkHeader, type AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import { errorResponse } from '../error-schema';
import { pageView } from '../page.view';
import { articleOutput, articleParams, articleQuery, newsPage, newsQuery } from './news.schemas';
import type { NewsService } from './news.service';
import { articleView } from './news.view';

/**
 * The URL of the next page: the same filters, the new cursor, never the token or API key. Only the query
 * string is parsed (a whole URL costs several times more); a fragment is dropped, as the query
 * parser dropped it.
 */
function nextLink(originalUrl: string, cursor: string): string {
  const hash = originalUrl.indexOf('#');
  const url = hash < 0 ? originalUrl : originalUrl.slice(0, hash);
  const question = url.indexOf('?');
  const params = new URLSearchParams(question < 0 ? '' : url.slice(question + 1));
  params.delete('access_token');
  params.delete('apiKey');
  params.set('cursor', cursor);
  return `${question < 0 ? url : url.slice(0, question)}?${params}`;
}

export function newsRoutes(news: NewsService, options: { sourceIds: string[] }): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/news',
      auth: 'bearer-or-key',
      summary: 'Search the articles: words, companies, publishers, dates; newest first; pages with a total',
      tags: ['news'],
      request: { query: newsQuery(options.sourceIds) },
      responses: {
        200: { description: 'A page of articles; next_cursor (and a Link rel="next" header) fetch the next', schema: newsPage },
        400: errorResponse('A bad parameter, named in fields'),
      },
      handler: async ({ query, req }) => {
        const page = await news.page(query);
        return { status: 200, body: pageView(page, articleView), headers: page.next ? linkHeader({ next: nextLink(req.originalUrl, page.next) }) : undefined };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/news/:id',
      auth: 'bearer-or-key',
      summary: 'One article',
      tags: ['news'],
      request: { params: articleParams, query: articleQuery },
      responses: {
        200: { description: 'The article', schema: articleOutput },
        400: errorResponse('Bad id'),
        404: errorResponse('No article with that id'),
      },
      handler: async ({ params }) => ({ status: 200, body: articleView(await news.get(params.id)) }),
    }),
  ];
}
