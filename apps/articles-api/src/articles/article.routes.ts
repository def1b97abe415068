import { routeDefiner, type AnyRoute } from '@lib/routing';
import { articleInput, errorEnvelope, idParams, listEnvelope, listQuery, singleEnvelope } from './article.schemas';
import type { ArticleService } from './article.service';
import { listReply } from './article-page';
import { singleView } from './article.view';

const bad = { description: 'Invalid id, query or fields', schema: errorEnvelope };
const missing = { description: 'No article with that id', schema: errorEnvelope };
const denied = { description: 'API key missing or wrong (only when ARTICLES_API_KEY is set)', schema: errorEnvelope };

/** Reads are public; writes need the API key when ARTICLES_API_KEY is set (`apiKey`). */
const defineRoute = routeDefiner<{ apiKey: { user: undefined } }>();
const writeBodyTypes = ['json', 'form'] as const;

export function articleRoutes(articles: ArticleService): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/articles',
      auth: 'public',
      summary: 'List articles, oldest first; a page ends early at its byte budget (8 MiB), its limit then the number of articles it holds',
      tags: ['articles'],
      request: { query: listQuery },
      responses: { 200: { description: 'A page of articles', schema: listEnvelope }, 400: bad },
      handler: ({ query }) => listReply(articles.list(query.offset, query.limit), query.offset),
    }),
    defineRoute({
      method: 'get',
      path: '/articles/:id',
      auth: 'public',
      summary: 'Read one article',
      tags: ['articles'],
      request: { params: idParams },
      responses: { 200: { description: 'The article', schema: singleEnvelope }, 400: bad, 404: missing },
      handler: async ({ params }) => ({ status: 200, body: singleView(await articles.get(params.id)) }),
    }),
    defineRoute({
      method: 'post',
      path: '/articles',
      auth: 'apiKey',
      summary: 'Create an article',
      tags: ['articles'],
      request: { body: articleInput, bodyTypes: [...writeBodyTypes] },
      responses: { 201: { description: 'Created', schema: singleEnvelope }, 400: bad, 401: denied },
      handler: async ({ body }) => {
        const article = await articles.create(body);
        return { status: 201, body: singleView(article), headers: { Location: `/articles/${article._id}` } };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/articles/:id',
      auth: 'apiKey',
      summary: 'Replace the title and content of an article',
      tags: ['articles'],
      request: { params: idParams, body: articleInput, bodyTypes: [...writeBodyTypes] },
      responses: { 200: { description: 'The updated article', schema: singleEnvelope }, 400: bad, 401: denied, 404: missing },
      handler: async ({ params, body }) => ({ status: 200, body: singleView(await articles.replace(params.id, body)) }),
    }),
    defineRoute({
      method: 'delete',
      path: '/articles/:id',
      auth: 'apiKey',
      summary: 'Delete an article',
      tags: ['articles'],
      request: { params: idParams },
      responses: { 200: { description: 'The deleted article', schema: singleEnvelope }, 400: bad, 401: denied, 404: missing },
      handler: async ({ params }) => ({ status: 200, body: singleView(await articles.remove(params.id)) }),
    }),
  ];
}
