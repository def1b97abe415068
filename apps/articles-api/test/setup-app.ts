import { createLifecycle, createLogger } from '@lib/http';
import { ensureIndexes } from '@lib/mongo';
import { useTestDatabase } from '@lib/mongo/testing';
import type { Express } from 'express';
import { createApp } from '../src/app';
import { articleModel } from '../src/articles/article.model';

/** An articles app on this test file's own database, emptied before each test. */
export function setupArticlesApp(options: { apiKey?: string } = {}) {
  const db = useTestDatabase();
  const ctx = {} as { app: Express; Article: ReturnType<typeof articleModel> };
  beforeAll(async () => {
    ctx.app = createApp({
      connection: db.connection,
      logger: createLogger('articles-api-test', 'silent'),
      lifecycle: createLifecycle(),
      apiKey: options.apiKey,
    });
    ctx.Article = articleModel(db.connection);
    await ensureIndexes(db.connection);
  });
  beforeEach(() => db.clear());
  return ctx;
}
