import { runService, startOrExit } from '@lib/http';
import { accountService } from './accounts/account.service';
import { createApp } from './app';
import { loadConfig } from './config';

startOrExit('crm-api', async () => {
  const config = loadConfig(process.env);
  await runService({
    name: 'crm-api',
    port: config.port,
    logLevel: config.logLevel,
    database: config.database,
    warnings: config.defaultsUsed.length ? [`development defaults in use: ${config.defaultsUsed.join(', ')}`] : [],
    createApp: (deps) => createApp({ ...deps, contactLimit: config.contactLimit, cursorSecret: config.cursorSecret, defaultMilestones: config.defaultMilestones }),
    prepare: async ({ connection, logger }) => {
      const result = await accountService(connection).bootstrapOwner(config.bootstrap);
      logger.info(`account owner ${config.bootstrap.email} of domain ${config.bootstrap.domain}: ${result === 'created' ? 'created' : 'already exists'}`);
    },
  });
});
