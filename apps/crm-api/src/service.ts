import { runOptionsFromConfig, type RunServiceOptions } from '@lib/http';
import { devDefaultsWarnings } from '@lib/validation';
import { createApp } from './app';
import type { CrmConfig } from './config';
import { withWebhookDelivery } from './webhooks/webhooks';
import { crmData } from './wiring';

/** How `main.ts` runs crm-api (start-up tests run the same). */
export function crmService(config: CrmConfig): RunServiceOptions {
  return withWebhookDelivery({
    ...runOptionsFromConfig('crm-api', config),
    warnings: devDefaultsWarnings(config.defaultsUsed),
    createApp: (deps) => createApp({ ...deps, contactLimit: config.contactLimit, cursorSecret: config.cursorSecret, defaultMilestones: config.defaultMilestones }),
    // repeated until it succeeds while the database is unreachable; creates the owner only once
    prepare: async ({ connection, logger }) => {
      const result = await crmData(connection, config.cursorSecret).accounts.bootstrapOwner(config.bootstrap);
      logger.info(`account owner ${config.bootstrap.email} of domain ${config.bootstrap.domain}: ${result === 'created' ? 'created' : 'already exists'}`);
    },
  }, config.webhooks);
}
