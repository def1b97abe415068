import { runOptionsFromConfig, type RunServiceOptions } from '@lib/http';
import { devDefaultsWarnings } from '@lib/validation';
import { createApp } from './app';
import type { CrmConfig } from './config';
import type { DeliveryWorker } from './webhooks/delivery-worker';
import type { CampaignWorker } from './campaigns/campaign-worker';
import { crmCampaigns, crmData, crmWebhooks } from './wiring';

/**
 * How `main.ts` runs crm-api (start-up tests run the same). The webhook delivery worker and the
 * campaign worker (campaigns/campaign-worker.ts) start once
 * start-up has prepared the database (on every replica) and stops on shutdown after in-flight
 * requests and before the database closes (attempts in flight are abandoned unrecorded: another
 * replica sends them again).
 */
export function crmService(config: CrmConfig): RunServiceOptions {
  let worker: DeliveryWorker | undefined;
  let campaigns: CampaignWorker | undefined;
  return {
    ...runOptionsFromConfig('crm-api', config),
    warnings: devDefaultsWarnings(config.defaultsUsed),
    createApp: (deps) =>
      createApp({ ...deps, contactLimit: config.contactLimit, cursorSecret: config.cursorSecret, defaultMilestones: config.defaultMilestones, webhooks: config.webhooks }),
    // repeated until it succeeds while the database is unreachable; creates the owner only once
    prepare: async ({ connection, logger }) => {
      const result = await crmData(connection, config.cursorSecret).accounts.bootstrapOwner(config.bootstrap);
      logger.info(`account owner ${config.bootstrap.email} of domain ${config.bootstrap.domain}: ${result === 'created' ? 'created' : 'already exists'}`);
      const webhooks = crmWebhooks(connection, logger, config.webhooks);
      await webhooks.assertTransactions();
      worker = webhooks.worker;
      worker.start();
      campaigns = crmCampaigns(connection, logger, { webhooks: config.webhooks, campaigns: config.campaigns, contactLimit: config.contactLimit });
      campaigns.start();
    },
    beforeClose: async () => {
      // the campaign worker first: its WEBHOOK steps store deliveries the delivery worker sends
      await campaigns?.stop();
      await worker?.stop();
    },
  };
}
