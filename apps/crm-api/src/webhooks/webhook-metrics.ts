import { counter, gauge, histogram } from '@lib/http';

/** Deliveries ended, by outcome: delivered, failed (schedule run out, or 410), cancelled (webhook disabled or deleted). */
export const deliveriesEnded = counter('webhook_deliveries_total', 'Webhook deliveries ended, by outcome (delivered, failed, cancelled)', ['outcome']);

/** Attempts, by result: 2xx, 3xx, 4xx, 410, 5xx, or the outbound guard's failure (timeout, refused, unreachable, unresolvable, aborted). */
export const attemptsMade = counter('webhook_attempts_total', 'Webhook delivery attempts, by result (2xx, 3xx, 4xx, 410, 5xx, timeout, refused, unreachable, unresolvable, aborted)', ['result']);

/** From the change's commit to the delivery's first attempt. */
export const deliveryLag = histogram('webhook_delivery_lag_seconds', 'Time from recording an event to the first attempt to deliver it', [], [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]);

/** One attempt's duration (the answer read, or the failure). */
export const attemptDuration = histogram('webhook_attempt_duration_seconds', 'Duration of one webhook delivery attempt', ['result'], [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);

/** Webhooks the service disabled, by cause: gone (410), schedule (failed for the whole retry schedule), cap (outbox cap). */
export const webhooksDisabled = counter('webhook_disabled_total', 'Webhooks disabled by the service, by cause (gone, schedule, cap)', ['cause']);

/** Pending deliveries of every account (the same on every replica: it is read from the database when scraped), counted up to `upTo`. */
export function outboxDepthGauge(read: () => Promise<number>): void {
  gauge('webhook_outbox_depth', 'Pending webhook deliveries of all accounts (read from the database when scraped)', async (set) => set(await read()));
}
