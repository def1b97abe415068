import { flatErrorBody } from '@lib/errors';
import { buildServiceApp, requireApiKey, type ServiceDeps } from '@lib/http';
import { databaseReady, timeLimitsOf } from '@lib/mongo';
import { articleRoutes } from './articles/article.routes';
import { errorEnvelope } from './articles/article.schemas';
import { articleRepository } from './articles/article.repository';
import { articleService } from './articles/article.service';

export interface ArticlesAppConfig extends ServiceDeps {
  /** When set, POST/PUT/DELETE need it as X-API-Key or Authorization: Bearer. */
  apiKey?: string;
}

export const VERSION = '0.1.0';

/** Builds the articles service without listening. */
export function createApp({ connection, logger, lifecycle, apiKey }: ArticlesAppConfig) {
  return buildServiceApp({
    logger,
    lifecycle,
    requestBoundMs: timeLimitsOf(connection).requestBoundMs,
    auth: { apiKey: { before: [requireApiKey(apiKey)], security: ['apiKey'] } },
    routes: articleRoutes(articleService(articleRepository(connection))),
    errorFormat: flatErrorBody,
    isReady: () => databaseReady(connection),
    bodyLimit: '512kb',
    openapi: {
      title: 'Articles API',
      errorSchema: errorEnvelope,
      version: VERSION,
      description: 'Create, read, update and delete articles. See apps/articles-api/README.md.',
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
    },
  });
}
