import { runService, startOrExit } from '@lib/http';
import { createApp } from './app';
import { loadConfig } from './config';

startOrExit('articles-api', async () => {
  const config = loadConfig(process.env);
  await runService({
    name: 'articles-api',
    port: config.port,
    logLevel: config.logLevel,
    database: config.database,
    warnings: config.production && !config.apiKey ? ['ARTICLES_API_KEY is not set: anyone can create, change and delete articles'] : [],
    createApp: (deps) => createApp({ ...deps, apiKey: config.apiKey }),
  });
});
