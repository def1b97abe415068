import { runService, startOrExit } from '@lib/http';
import { createApp } from './app';
import { loadConfig } from './config';

startOrExit('news-api', async () => {
  const config = loadConfig(process.env);
  await runService({
    name: 'news-api',
    port: config.port,
    logLevel: config.logLevel,
    database: config.database,
    warnings: config.defaultsUsed.length ? [`development defaults in use: ${config.defaultsUsed.join(', ')}`] : [],
    createApp: (deps) => createApp({ ...deps, masterKey: config.masterKey, jwt: config.jwt }),
  });
});
