import { routeDefiner, type AnyRoute } from '@lib/routing';
import { articleInput, errorResponse, idParams, listEnvelope, listQuery, singleEnvelope } from './article.schemas';
import type { ArticleService } from './article.service';
import { listReply } from './article-page';
import { singleView } from './article.view';

const bad = errorResponse('Invalid id, query or fields');
const missing = errorResponse('No article with that id');
const denied = errorResponse('API key missing or wrong (only when ARTICLES_API_KEY is set)');

/** Reads are public; writes need the API key when ARTICLES_API_KEY is set (`apiKey`). */
const defineRoute = routeDefiner<{ apiKey: { user: undefined } }>();
const read = defineRoute.group({ auth: 'public', tags: ['articles'], responses: { 400: bad } });
const write = defineRoute.group({ auth: 'apiKey', tags: ['articles'], responses: { 400: bad, 401: denied } });
const writeBodyTypes = ['json', 'form'] as const;

export function articleRoutes(articles: ArticleService): AnyRoute[] {
  return [
    read.get('/articles', {
      summary: 'List articles, oldest first; a page ends early at its byte budget (8 MiB), its limit then the number of articles it holds',
      request: { query: listQuery },
      responses: { 200: { description: 'A page of articles', schema: listEnvelope } },
      handler: ({ query }) => listReply(articles.list(query.offset, query.limit), query.offset),
    }),
    read.get('/articles/:id', {
      summary: 'Read one article',
      request: { params: idParams },
      responses: { 200: { description: 'The article', schema: singleEnvelope }, 404: missing },
      handler: async ({ params }) => ({ status: 200, body: singleView(await articles.get(params.id)) }),
    }),
    write.post('/articles', {
      summary: 'Create an article',
      request: { body: articleInput, bodyTypes: [...writeBodyTypes] },
      responses: { 201: { description: 'Created', schema: singleEnvelope } },
      handler: async ({ body }) => {
        const article = await articles.create(body);
        return { status: 201, body: singleView(article), headers: { Location: `/articles/${article._id}` } };
      },
    }),
    write.put('/articles/:id', {
      summary: 'Replace the title and content of an article',
      request: { params: idParams, body: articleInput, bodyTypes: [...writeBodyTypes] },
      responses: { 200: { description: 'The updated article', schema: singleEnvelope }, 404: missing },
      handler: async ({ params, body }) => ({ status: 200, body: singleView(await articles.replace(params.id, body)) }),
    }),
    write.delete('/articles/:id', {
      summary: 'Delete an article',
      request: { params: idParams },
      responses: { 200: { description: 'The deleted article', schema: singleEnvelope }, 404: missing },
      handler: async ({ params }) => ({ status: 200, body: singleView(await articles.remove(params.id)) }),
    }),
  ];
}
