import type { Logger } from '@lib/http';
import { lruCache } from '@lib/cache';
import type { WorkerDeliveries, WorkerWebhooks } from '../store/cross-tenant-webhooks';
import type { SubscriptionCache } from './subscriptions';
import { deliveriesEnded, webhooksDisabled } from './webhook-metrics';

export type DisableCause = 'gone' | 'schedule' | 'cap';

export interface WebhookDisabling {
  /** Disables an enabled webhook with the reason shown by the API, cancels its pending deliveries and stops recording for it (every replica within 1 s). False when it was not enabled. */
  disable(webhook: number, cause: DisableCause, reason: string): Promise<boolean>;
  /** After deliveries were recorded for these webhooks: disables each whose pending deliveries passed the outbox cap (counted at most once a second per webhook and process). */
  checkCap(webhooks: readonly number[]): Promise<void>;
}

export interface WebhookDisablingDeps {
  webhooks: WorkerWebhooks;
  deliveries: WorkerDeliveries;
  subscriptions: SubscriptionCache;
  logger: Logger;
  outboxCap: number;
  retentionMs: number;
  /** How often one process counts one webhook's pending deliveries at most. */
  capCheckMs?: number;
}

export function webhookDisabling({ webhooks, deliveries, subscriptions, logger, outboxCap, retentionMs, capCheckMs = 1_000 }: WebhookDisablingDeps): WebhookDisabling {
  const counted = lruCache<number, true>({ max: 10_000, ttlMs: capCheckMs });

  async function disable(webhook: number, cause: DisableCause, reason: string): Promise<boolean> {
    const disabled = await webhooks.disable(webhook, reason);
    if (!disabled) return false;
    const cancelled = await deliveries.cancelPending(webhook, `webhook disabled: ${reason}`, new Date(Date.now() + retentionMs));
    deliveriesEnded.inc({ outcome: 'cancelled' }, cancelled.modifiedCount);
    webhooksDisabled.inc({ cause });
    await subscriptions.revoke(disabled.account);
    logger.warn({ webhook, account: disabled.account, cause, cancelled: cancelled.modifiedCount }, `webhook disabled: ${reason}`);
    return true;
  }

  return {
    disable,
    async checkCap(ids) {
      for (const webhook of ids) {
        if (counted.has(webhook)) continue;
        counted.set(webhook, true);
        const pending = await deliveries.countPending(webhook, outboxCap + 1);
        if (pending > outboxCap) await disable(webhook, 'cap', `more than ${outboxCap} deliveries were waiting (the receiver has not accepted them for too long)`);
      }
    },
  };
}
