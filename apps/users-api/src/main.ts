import { runService, startOrExit } from '@lib/http';
import { createApp } from './app';
import { loadConfig } from './config';

startOrExit('users-api', async () => {
  const config = loadConfig(process.env);
  await runService({
    name: 'users-api',
    port: config.port,
    logLevel: config.logLevel,
    database: config.database,
    warnings: config.warnings,
    createApp: (deps) => createApp({ ...deps, apiKey: config.apiKey, cursorSecret: config.cursorSecret }),
  });
});
