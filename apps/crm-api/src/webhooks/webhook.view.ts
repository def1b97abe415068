import type { z } from '@lib/validation';
import type { DeliveryAttempt, DeliveryDoc } from './webhook-delivery.model';
import type { attemptOutput, deliveryOutput, webhookOutput } from './webhook.outputs';
import type { WebhookDoc } from './webhook.model';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The wire shape of a webhook (JSON and XML); its secrets never, but the one `secret` given (create, rotate). */
export function webhookView(doc: WebhookDoc, secret?: string): z.input<typeof webhookOutput> {
  return {
    id: doc._id,
    url: doc.url,
    events: doc.events,
    description: doc.description,
    enabled: doc.enabled,
    ...(doc.disabled_reason !== null && { disabled_reason: doc.disabled_reason }),
    ...(!doc.enabled && doc.disabled_at !== null && { disabled_time: seconds(doc.disabled_at) }),
    created_time: doc.created_time,
    updated_time: doc.updated_time,
    ...(secret !== undefined && { secret }),
  };
}

const attemptView = (attempt: DeliveryAttempt): z.input<typeof attemptOutput> => ({
  time: seconds(attempt.at),
  ...(attempt.status !== null && { status: attempt.status }),
  duration_ms: Math.round(attempt.duration_ms),
  response: attempt.response,
  ...(attempt.error !== null && { error: attempt.error }),
});

/** The wire shape of a delivery; `withLog` adds its attempt log (the single delivery's answer). */
export function deliveryView(doc: DeliveryDoc, withLog = false): z.input<typeof deliveryOutput> {
  const last = doc.log.at(-1);
  return {
    id: doc._id,
    webhook_id: doc.webhook,
    message_id: doc.event_id,
    event: doc.event,
    state: doc.state,
    attempts: doc.attempts,
    created_time: seconds(doc.created_at),
    ...(doc.state === 'pending' && doc.next_attempt_at && { next_attempt_time: seconds(doc.next_attempt_at) }),
    ...(last && { last_attempt: attemptView(last) }),
    ...(doc.reason !== null && { reason: doc.reason }),
    ...(doc.replay_of !== null && { replay_of: doc.replay_of }),
    ...(withLog && { log: doc.log.map(attemptView) }),
  };
}
