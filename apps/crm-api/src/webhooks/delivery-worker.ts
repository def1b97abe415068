import type { Logger } from '@lib/http';
import { inChildSpan } from '@lib/http/tracing';
import { lruCache } from '@lib/cache';
import type { CrossTenantWebhooks, DueDelivery, WorkerDeliveries, WorkerWebhooks } from '../store/cross-tenant-webhooks';
import { nextDelayMs, scheduleSpanMs } from './retry-schedule';
import { sendAttempt, type AttemptResult } from './send-attempt';
import type { DeliveryDoc } from './webhook-delivery.model';
import type { WebhookDisabling } from './webhook-disabling';
import type { WebhookDoc } from './webhook.model';
import { attemptDuration, attemptsMade, deliveriesEnded, deliveryLag } from './webhook-metrics';
import { PARTITIONS_PER_WEBHOOK, type DeliverySettings } from './webhook-settings';
import { pollingWorker, type Job } from '../workers/polling-worker';

export interface DeliveryWorker {
  /** Starts looking for due deliveries (every `pollMs`, and at once after each `nudge`). */
  start(): void;
  /** A delivery was recorded in this process: look now instead of at the next poll. */
  nudge(): void;
  /** Stops looking, stops the attempts in flight (recording nothing of them: another replica sends them again) and waits for them. */
  stop(): Promise<void>;
}

export interface DeliveryWorkerDeps {
  lease: CrossTenantWebhooks['lease'];
  webhooks: WorkerWebhooks;
  deliveries: WorkerDeliveries;
  disabling: WebhookDisabling;
  settings: DeliverySettings;
  logger: Logger;
}

/** How long a process leaves alone a delivery it sent but could not record the outcome of (the database failing). */
const RECORD_FAILURE_PAUSE_MS = 10_000;

/** Webhooks one read of due deliveries leaves out at most. */
const MAX_SKIPPED_WEBHOOKS = 100;

/** Which lease guards a delivery: one of PARTITIONS_PER_WEBHOOK per webhook, by its resource (FNV-1a), so a resource's deliveries always share one. */
export function partitionOf(delivery: Pick<DueDelivery, '_id' | 'webhook' | 'resource'>): string {
  const key = delivery.resource ?? delivery._id;
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return `webhook-deliveries:${delivery.webhook}:${hash % PARTITIONS_PER_WEBHOOK}`;
}

const humanSpan = (ms: number) => (ms >= 36 * 3600_000 ? `${Math.round(ms / 3600_000 / 24)} days` : ms >= 3600_000 ? `${Math.round(ms / 3600_000)} h` : `${Math.round(ms / 1000)} s`);

/**
 * Sends due deliveries, on every replica. A replica claims a partition of a webhook's deliveries
 * with a lease (@lib/mongo), re-reads the first pending delivery of each due resource in it (so a
 * resource's deliveries go out one at a time, in order), sends it, writes the outcome and frees the
 * lease: N replicas share the work and none sends what another is sending. A replica that dies
 * mid-delivery leaves its lease to expire (`leaseMs`); then another sends the delivery again, with
 * the same `webhook-id`.
 */
export function deliveryWorker({ lease: takeLease, webhooks, deliveries, disabling, settings, logger }: DeliveryWorkerDeps): DeliveryWorker {
  const { concurrency, pollMs, leaseMs, retry, retentionMs } = settings;
  const claimed = new Set<string>();
  /** Webhooks with a partition held elsewhere in the last pass: skipped by the next read of due deliveries. */
  let busy = new Set<number>();
  /** Deliveries sent whose outcome could not be stored: left alone by this process for RECORD_FAILURE_PAUSE_MS. */
  const unrecorded = lruCache<string, true>({ max: 10_000, ttlMs: RECORD_FAILURE_PAUSE_MS });

  const expiry = () => new Date(Date.now() + retentionMs);

  function validSecrets(webhook: WebhookDoc): string[] {
    const now = Date.now();
    return webhook.secrets.filter((s) => s.expires_at === null || s.expires_at.getTime() > now).map((s) => s.key);
  }

  async function cancel(delivery: DeliveryDoc, reason: string): Promise<void> {
    const result = await deliveries.cancel(delivery._id, reason, expiry());
    if (result.modifiedCount) deliveriesEnded.inc({ outcome: 'cancelled' });
  }

  /** What the attempt makes of the delivery, and the webhook's fate. */
  function outcomeOf(delivery: DeliveryDoc, result: AttemptResult) {
    const attempts = delivery.attempts + 1;
    if (result.outcome === 'delivered') return { state: 'delivered' as const, nextAttemptAt: null, reason: null, expiresAt: expiry() };
    if (result.outcome === 'gone') return { state: 'failed' as const, nextAttemptAt: null, reason: 'the receiver answered 410 Gone', expiresAt: expiry(), disable: { cause: 'gone' as const, reason: 'the receiver answered 410 Gone' } };
    const delay = delivery.replay_of || delivery.event === 'webhook.test' ? undefined : nextDelayMs(retry, attempts, result.retryAfterMs);
    if (delay !== undefined) return { state: 'pending' as const, nextAttemptAt: new Date(Date.now() + delay), reason: null, expiresAt: null };
    const reason = `no 2xx answer after ${attempts} attempts (last: ${result.summary})`;
    // a replay or a test is sent once: its failure says nothing of the schedule
    if (delivery.replay_of || delivery.event === 'webhook.test') return { state: 'failed' as const, nextAttemptAt: null, reason, expiresAt: expiry() };
    const span = humanSpan(scheduleSpanMs(retry));
    return { state: 'failed' as const, nextAttemptAt: null, reason, expiresAt: expiry(), disable: { cause: 'schedule' as const, reason: `deliveries failed for the whole retry schedule (${attempts} attempts over ${span}; last: ${result.summary})` } };
  }

  /** Sends the delivery if it is (still) pending and due; false when there was nothing to send. */
  async function attempt(delivery: DeliveryDoc, claim: AbortSignal): Promise<boolean> {
    if (delivery.state !== 'pending' || !delivery.next_attempt_at || delivery.next_attempt_at.getTime() > Date.now() || unrecorded.has(delivery._id)) return false;
    const webhook = await webhooks.byId(delivery.webhook);
    if (!webhook || !webhook.enabled) {
      await cancel(delivery, !webhook ? 'webhook deleted' : `webhook disabled${webhook.disabled_reason ? `: ${webhook.disabled_reason}` : ''}`);
      return false;
    }
    if (delivery.attempts === 0) deliveryLag.observe((Date.now() - delivery.created_at.getTime()) / 1000);
    const signal = AbortSignal.any([claim, worker.stopping]);
    const attributes = { 'webhook.id': webhook._id, 'webhook.event': delivery.event, 'webhook.delivery': delivery._id, 'webhook.attempt': delivery.attempts + 1 };
    const result = await inChildSpan(delivery.trace ?? undefined, 'webhook.deliver', attributes, async (span) => {
      const sent = await sendAttempt(delivery, webhook.url, validSecrets(webhook), settings, signal);
      span.setAttributes({ 'webhook.result': sent.result, ...(sent.attempt.status !== null && { 'http.response.status_code': sent.attempt.status }) });
      if (sent.outcome !== 'delivered') span.fail(sent.summary);
      return sent;
    });
    // stopped (shutdown, or the claim lost): not the receiver's doing; the delivery stays as it was for the next claim
    if (result.result === 'aborted') return false;
    attemptsMade.inc({ result: result.result });
    attemptDuration.observe({ result: result.result }, result.attempt.duration_ms / 1000);
    const outcome = outcomeOf(delivery, result);
    let written: boolean;
    try {
      written = await deliveries.recordAttempt(delivery, { attempt: result.attempt, ...outcome });
    } catch (err) {
      // sent, but its outcome not stored (the database failing): not sent again from here for a while
      unrecorded.set(delivery._id, true);
      throw err;
    }
    logger.info(
      {
        webhook: webhook._id,
        account: webhook.account,
        delivery: delivery._id,
        webhook_id: delivery.event_id,
        event: delivery.event,
        attempt: delivery.attempts + 1,
        status: result.attempt.status,
        result: result.result,
        duration_ms: result.attempt.duration_ms,
        outcome: outcome.state,
        next_attempt_at: outcome.nextAttemptAt?.toISOString() ?? null,
        ...(result.attempt.error && { error: result.attempt.error }),
        ...(!written && { written: false }),
      },
      'webhook delivery attempt',
    );
    if (!written) return true;
    if (outcome.state !== 'pending') deliveriesEnded.inc({ outcome: outcome.state });
    if ('disable' in outcome && outcome.disable) await disabling.disable(webhook._id, outcome.disable.cause, outcome.disable.reason);
    return true;
  }

  /** Claims a partition and sends the first pending delivery of each due resource in it; the number sent. */
  async function serve(partition: string, due: DueDelivery[]): Promise<number> {
    const lease = await takeLease(partition, { ttlMs: leaseMs });
    if (!lease) {
      // held by another replica: its webhook's deliveries are left out of the next read, so that
      // one webhook's backlog at the head of the due list does not hide every other webhook's
      busy.add(due[0].webhook);
      return 0;
    }
    let sent = 0;
    try {
      for (const candidate of due) {
        if (lease.lost.aborted || worker.stopping.aborted) break;
        // read after the lease was taken: what another replica sent before freeing it is seen as done
        const head = candidate.resource ? await deliveries.firstPending(candidate.webhook, candidate.resource) : await deliveries.get(candidate._id);
        if (!head) continue;
        if (head._id !== candidate._id && head.next_attempt_at && head.next_attempt_at.getTime() > Date.now()) {
          // behind an earlier delivery waiting for its retry: due no sooner than it, out of the due list until then
          await deliveries.defer(candidate._id, head.next_attempt_at);
          continue;
        }
        if (await attempt(head, lease.lost)) sent++;
      }
    } finally {
      await lease.release().catch((err: unknown) => logger.warn({ err, partition }, 'cannot free a webhook delivery lease; it expires by itself'));
    }
    return sent;
  }

  async function next(free: number): Promise<Job[]> {
    let due: DueDelivery[] = [];
    const skipped = [...busy].slice(0, MAX_SKIPPED_WEBHOOKS);
    busy = new Set();
    try {
      due = await deliveries.due(new Date(), concurrency * 8, skipped);
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'webhook deliveries: cannot read the due deliveries; trying again');
    }
    const byPartition = new Map<string, DueDelivery[]>();
    for (const delivery of due) {
      const partition = partitionOf(delivery);
      if (claimed.has(partition)) continue;
      const list = byPartition.get(partition) ?? [];
      if (!list.some((d) => d.resource !== null && d.resource === delivery.resource)) list.push(delivery);
      byPartition.set(partition, list);
    }
    // in random order: replicas reading the same due list try different partitions first
    const partitions = [...byPartition].sort(() => Math.random() - 0.5).slice(0, free);
    return partitions.map(([partition, list]) => {
      claimed.add(partition);
      return () =>
        serve(partition, list)
          .then((sent) => {
            if (sent) worker.nudge();
          })
          .catch((err: unknown) => logger.error({ err, partition }, 'webhook deliveries: a partition failed'))
          .finally(() => claimed.delete(partition));
    });
  }

  const worker = pollingWorker({ pollMs, concurrency, next });
  return worker;
}
