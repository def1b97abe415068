import { HttpError, validationFailed, type FieldIssue } from '@lib/errors';
import { urlRefusal, type OutboundPolicy } from '@lib/outbound';
import type { AccountStore } from '../store/crm-store';
import type { DeliveryWorker } from './delivery-worker';
import { newEventId } from './ids';
import { pendingDelivery } from './pending-delivery';
import { newSecret } from './signature';
import type { SubscriptionCache } from './subscriptions';
import type { DeliveryDoc } from './webhook-delivery.model';
import { eventPatterns, MAX_EVENT_PATTERNS, TEST_EVENT } from './webhook-events';
import type { DeliverySettings } from './webhook-settings';
import type { WebhookDoc } from './webhook.model';
import type { WebhookChanges } from './webhook.repository';

/** Longest URL a webhook takes. */
export const MAX_URL_LENGTH = 2048;
/** Longest description. */
export const MAX_DESCRIPTION_LENGTH = 500;

export interface WebhookInput {
  url: string;
  events: string[];
  description?: string;
}

export const webhookNotFound = (id: number) => new HttpError(404, 'webhook_not_found', `No webhook with id ${id}`);
export const deliveryNotFound = (id: string) => new HttpError(404, 'delivery_not_found', `No delivery with id ${id} for this webhook`);
export const webhookLimit = (limit: number) => new HttpError(409, 'webhook_limit', `An account has at most ${limit} webhooks; delete one first`);
export const deliveryLimit = (limit: number) =>
  new HttpError(429, 'delivery_limit', `The account has ${limit} or more deliveries waiting; try again once its receivers have accepted them`, { headers: { 'Retry-After': '60' } });
export const webhookDisabled = (id: number) => new HttpError(409, 'webhook_disabled', `Webhook ${id} is disabled; enable it first (PUT with "enabled": true)`);
export const deliveryPending = (id: string) => new HttpError(409, 'delivery_pending', `Delivery ${id} is still being attempted; replay it once it has ended`);

export interface WebhookServiceDeps {
  subscriptions: SubscriptionCache;
  worker: Pick<DeliveryWorker, 'nudge'>;
  settings: Pick<DeliverySettings, 'policy' | 'limits' | 'retentionMs' | 'rotationWindowMs'>;
}

function urlIssues(policy: OutboundPolicy, url: string): FieldIssue[] {
  if (url.length > MAX_URL_LENGTH) return [{ field: 'url', message: `is longer than ${MAX_URL_LENGTH} characters` }];
  const refusal = urlRefusal(policy, url);
  return refusal ? [{ field: 'url', message: refusal.message }] : [];
}

function eventIssues(events: readonly string[]): { patterns: string[]; issues: FieldIssue[] } {
  if (!events.length) return { patterns: [], issues: [{ field: 'events', message: 'must name at least one event (or "*")' }] };
  if (events.length > MAX_EVENT_PATTERNS) return { patterns: [], issues: [{ field: 'events', message: `holds at most ${MAX_EVENT_PATTERNS} entries` }] };
  const { patterns, problems } = eventPatterns(events);
  return { patterns, issues: problems.map((message) => ({ field: 'events', message })) };
}

/**
 * The management use cases (the routes under /dev/api/webhooks): every function works on the
 * signed-in user's account. Changes that decide what is recorded (create, url and events, enable,
 * disable, delete) are published to every replica's subscription cache.
 */
export function webhookService({ subscriptions, worker, settings }: WebhookServiceDeps) {
  const { policy, limits } = settings;

  async function owned(store: AccountStore, id: number): Promise<WebhookDoc> {
    const webhook = await store.webhooks.get(id);
    if (!webhook) throw webhookNotFound(id);
    return webhook;
  }

  async function assertRoomForDelivery(store: AccountStore): Promise<void> {
    if ((await store.outbox.countPending(limits.pendingPerAccount)) >= limits.pendingPerAccount) throw deliveryLimit(limits.pendingPerAccount);
  }

  async function enqueue(store: AccountStore, doc: DeliveryDoc): Promise<DeliveryDoc> {
    await store.outbox.insert([doc]);
    worker.nudge();
    return doc;
  }

  const oneOff = (webhook: WebhookDoc, fields: Pick<DeliveryDoc, 'event_id' | 'event' | 'body' | 'replay_of'>): DeliveryDoc => ({
    ...pendingDelivery({ webhook: webhook._id, resource: null, seq: 0, trace: null, ...fields }),
    account: webhook.account,
  });

  return {
    /** A new webhook, enabled, and its secret (shown this once). */
    async create(store: AccountStore, input: WebhookInput): Promise<{ webhook: WebhookDoc; secret: string }> {
      const { patterns, issues } = eventIssues(input.events);
      const description = input.description ?? '';
      if (description.length > MAX_DESCRIPTION_LENGTH) issues.push({ field: 'description', message: `is longer than ${MAX_DESCRIPTION_LENGTH} characters` });
      issues.unshift(...urlIssues(policy, input.url));
      if (issues.length) throw validationFailed(issues);
      const secret = newSecret();
      // count and insert in one transaction that also writes the account's webhook lock: two creates at once conflict, so the count is exact
      const webhook = await store.transaction(async () => {
        await store.outbox.nextSeqs(['webhooks']);
        if ((await store.webhooks.count()) >= limits.webhooksPerAccount) throw webhookLimit(limits.webhooksPerAccount);
        return store.webhooks.create({ url: input.url, events: patterns, description }, secret);
      });
      await subscriptions.revoke(store.account);
      return { webhook, secret };
    },

    list: (store: AccountStore, limit: number, afterId?: number) => store.webhooks.list(limit, afterId),

    get: owned,

    /** Changes url, events, description or enabled; disabling cancels the pending deliveries. */
    async update(store: AccountStore, id: number, input: Partial<WebhookInput> & { enabled?: boolean }): Promise<WebhookDoc> {
      const changes: WebhookChanges = {};
      const issues: FieldIssue[] = [];
      if (input.url !== undefined) issues.push(...urlIssues(policy, (changes.url = input.url)));
      if (input.events !== undefined) {
        const read = eventIssues(input.events);
        issues.push(...read.issues);
        changes.events = read.patterns;
      }
      if (input.description !== undefined) {
        if (input.description.length > MAX_DESCRIPTION_LENGTH) issues.push({ field: 'description', message: `is longer than ${MAX_DESCRIPTION_LENGTH} characters` });
        changes.description = input.description;
      }
      if (issues.length) throw validationFailed(issues);
      if (input.enabled !== undefined) changes.enabled = input.enabled;
      const updated = await store.webhooks.update(id, changes);
      if (!updated) throw webhookNotFound(id);
      if (input.enabled === false) await store.outbox.cancelPending(id, 'webhook disabled by the account', new Date(Date.now() + settings.retentionMs));
      await subscriptions.revoke(store.account);
      return updated;
    },

    /** Deletes the webhook and cancels its pending deliveries (its delivery log expires with them). */
    async remove(store: AccountStore, id: number): Promise<void> {
      if (!(await store.webhooks.remove(id))) throw webhookNotFound(id);
      await store.outbox.cancelPending(id, 'webhook deleted', new Date(Date.now() + settings.retentionMs));
      await subscriptions.revoke(store.account);
    },

    /** A new secret (shown this once); the previous ones sign too for `rotationWindowMs`. */
    async rotateSecret(store: AccountStore, id: number): Promise<{ webhook: WebhookDoc; secret: string }> {
      const secret = newSecret();
      const webhook = await store.webhooks.rotate(id, secret, new Date(Date.now() + settings.rotationWindowMs));
      if (!webhook) throw webhookNotFound(id);
      return { webhook, secret };
    },

    /** Sends the webhook a `webhook.test` event once (no retries); its delivery shows in the log. */
    async sendTest(store: AccountStore, id: number): Promise<DeliveryDoc> {
      const webhook = await owned(store, id);
      if (!webhook.enabled) throw webhookDisabled(id);
      await assertRoomForDelivery(store);
      const eventId = newEventId();
      const body = JSON.stringify({ eventName: TEST_EVENT, eventData: { webhook_id: webhook._id, message: 'A test event: your receiver is reachable and verifies our signature' } });
      return enqueue(store, oneOff(webhook, { event_id: eventId, event: TEST_EVENT, body, replay_of: null }));
    },

    /** The webhook's deliveries, newest first. */
    async deliveries(store: AccountStore, id: number, limit: number, beforeId?: string): Promise<DeliveryDoc[]> {
      await owned(store, id);
      return store.outbox.list(id, limit, beforeId);
    },

    async delivery(store: AccountStore, id: number, deliveryId: string): Promise<DeliveryDoc> {
      const delivery = await store.outbox.get(id, deliveryId);
      if (!delivery) throw deliveryNotFound(deliveryId);
      return delivery;
    },

    /** Sends an ended delivery again, once, with the same `webhook-id` and body (a new delivery in the log, `replay_of` the first). */
    async replay(store: AccountStore, id: number, deliveryId: string): Promise<DeliveryDoc> {
      const webhook = await owned(store, id);
      const original = await store.outbox.get(id, deliveryId);
      if (!original) throw deliveryNotFound(deliveryId);
      if (original.state === 'pending') throw deliveryPending(deliveryId);
      if (!webhook.enabled) throw webhookDisabled(id);
      await assertRoomForDelivery(store);
      return enqueue(store, oneOff(webhook, { event_id: original.event_id, event: original.event, body: original.body, replay_of: original._id }));
    },
  };
}

export type WebhookService = ReturnType<typeof webhookService>;
