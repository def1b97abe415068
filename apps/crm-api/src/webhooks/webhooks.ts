import type { Logger, RunServiceOptions } from '@lib/http';
import { revocationLog } from '@lib/mongo';
import type { Connection } from 'mongoose';
import { deliveryRepository } from './delivery.repository';
import { deliveryWorker, type DeliveryWorker } from './delivery-worker';
import { eventRecorder, type EventRecorder } from './event-recorder';
import { assertTransactions } from './transaction';
import { subscriptionCache } from './subscriptions';
import { webhookDisabling } from './webhook-disabling';
import { outboxDepthGauge } from './webhook-metrics';
import type { DeliverySettings } from './webhook-settings';
import { registerWebhookModels, webhookRepository } from './webhook.repository';
import { webhookService, type WebhookService } from './webhook.service';

export { registerWebhookModels };

/** The webhooks of one database: what write paths record with, the delivery worker, the management use cases. */
export interface CrmWebhooks {
  recorder: EventRecorder;
  worker: DeliveryWorker;
  service: WebhookService;
}

/** Most pending deliveries the depth metric counts (a bounded index scan per scrape). */
const DEPTH_COUNT_LIMIT = 1_000_000;

/** Builds the webhooks of a connection: one set per process, whose worker is woken by the recorder's commits. */
export function createWebhooks(connection: Connection, logger: Logger, settings: DeliverySettings): CrmWebhooks {
  registerWebhookModels(connection);
  const webhooks = webhookRepository(connection);
  const deliveries = deliveryRepository(connection);
  const subscriptions = subscriptionCache(webhooks, revocationLog(connection));
  const disabling = webhookDisabling({ webhooks, deliveries, subscriptions, logger, outboxCap: settings.limits.outboxCap, retentionMs: settings.retentionMs });
  const worker = deliveryWorker({ connection, webhooks, deliveries, disabling, settings, logger });
  const recorder = eventRecorder({
    connection,
    deliveries,
    subscriptions,
    afterCommit: (ids) => {
      worker.nudge();
      disabling.checkCap(ids).catch((err: unknown) => logger.warn({ err }, 'webhooks: cannot check the outbox cap'));
    },
  });
  outboxDepthGauge(() => deliveries.depth(DEPTH_COUNT_LIMIT));
  return { recorder, worker, service: webhookService({ connection, webhooks, deliveries, subscriptions, worker, settings }) };
}

const byConnection = new WeakMap<Connection, CrmWebhooks>();

/** The webhooks of the connection, built on first use with these settings (the app and the process share them). */
export function webhooksOf(connection: Connection, logger: Logger, settings: DeliverySettings): CrmWebhooks {
  let made = byConnection.get(connection);
  if (!made) byConnection.set(connection, (made = createWebhooks(connection, logger, settings)));
  return made;
}

/**
 * The service's run options with the delivery worker: started once start-up has prepared the
 * database (on every replica), stopped on shutdown after in-flight requests and before the database
 * closes (attempts in flight are abandoned unrecorded: another replica sends them again).
 */
export function withWebhookDelivery(options: RunServiceOptions, settings: DeliverySettings): RunServiceOptions {
  let worker: DeliveryWorker | undefined;
  return {
    ...options,
    // registered before start-up creates the indexes of every model
    createApp: (deps) => {
      registerWebhookModels(deps.connection);
      return options.createApp(deps);
    },
    prepare: async (deps) => {
      await options.prepare?.(deps);
      const probe = webhookRepository(deps.connection);
      await assertTransactions(deps.connection, (session) => probe.count(0, session));
      worker = webhooksOf(deps.connection, deps.logger, settings).worker;
      worker.start();
    },
    beforeClose: async () => {
      await worker?.stop();
      await options.beforeClose?.();
    },
  };
}
