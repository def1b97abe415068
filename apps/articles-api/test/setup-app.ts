import { useServiceApp } from '@lib/testing';
import { createApp } from '../src/app';
import { articleModel } from '../src/articles/article.model';

/** An articles app on this test file's own database, emptied before each test. */
export function setupArticlesApp(options: { apiKey?: string; monitorCommands?: boolean } = {}) {
  return useServiceApp((deps) => createApp({ ...deps, apiKey: options.apiKey }), { models: { Article: articleModel }, monitorCommands: options.monitorCommands });
}
