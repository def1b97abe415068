import type { Logger } from '@lib/http';
import type { CrossTenantWebhooks } from '../store/cross-tenant-webhooks';
import { deliveryWorker, type DeliveryWorker } from './delivery-worker';
import { eventRecorder, type EventRecorder } from './event-recorder';
import { subscriptionCache } from './subscriptions';
import { webhookDisabling } from './webhook-disabling';
import { outboxDepthGauge } from './webhook-metrics';
import type { DeliverySettings } from './webhook-settings';
import { webhookService, type WebhookService } from './webhook.service';

/** The webhooks of one database: what write paths record with, the delivery worker, the management use cases. */
export interface CrmWebhooks {
  recorder: EventRecorder;
  worker: DeliveryWorker;
  service: WebhookService;
  /** Deliveries to these webhooks were committed outside the recorder (a campaign's WEBHOOK step): wakes the worker and checks the outbox cap, as the recorder's commits do. */
  delivered(webhooks: number[]): void;
  /** Stops start-up on a database without transactions. */
  assertTransactions(): Promise<void>;
}

/** Most pending deliveries the depth metric counts (a bounded index scan per scrape). */
const DEPTH_COUNT_LIMIT = 1_000_000;

/** Builds the webhooks of a database (one set per process, made by wiring.ts), whose worker is woken by the recorder's commits. */
export function createWebhooks(tenants: CrossTenantWebhooks, logger: Logger, settings: DeliverySettings): CrmWebhooks {
  const { webhooks, deliveries } = tenants;
  const subscriptions = subscriptionCache(tenants.revocations);
  const disabling = webhookDisabling({ webhooks, deliveries, subscriptions, logger, outboxCap: settings.limits.outboxCap, retentionMs: settings.retentionMs });
  const worker = deliveryWorker({ lease: tenants.lease, webhooks, deliveries, disabling, settings, logger });
  const delivered = (ids: number[]) => {
    worker.nudge();
    disabling.checkCap(ids).catch((err: unknown) => logger.warn({ err }, 'webhooks: cannot check the outbox cap'));
  };
  const recorder = eventRecorder({ subscriptions, afterCommit: delivered });
  outboxDepthGauge(() => deliveries.depth(DEPTH_COUNT_LIMIT));
  return { recorder, worker, service: webhookService({ subscriptions, worker, settings }), delivered, assertTransactions: tenants.assertTransactions };
}
