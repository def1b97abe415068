import { runOptionsFromConfig, type RunServiceOptions } from '@lib/http';
import { createApp } from './app';
import type { ArticlesConfig } from './config';

/** How `main.ts` runs articles-api (start-up tests run the same). */
export function articlesService(config: ArticlesConfig): RunServiceOptions {
  return {
    ...runOptionsFromConfig('articles-api', config),
    warnings: config.production && !config.apiKey ? ['ARTICLES_API_KEY is not set: anyone can create, change and delete articles'] : [],
    createApp: (deps) => createApp({ ...deps, apiKey: config.apiKey }),
  };
}
