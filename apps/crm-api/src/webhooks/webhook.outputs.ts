import { xmlList } from '@lib/routing';
import { z } from '@lib/validation';
import { XML_NAMES } from '../http/xml-names';

const epoch = (description: string) => z.number().int().meta({ description: `${description} (epoch seconds)` });

export const webhookOutput = z
  .strictObject({
    id: z.number().int(),
    url: z.string(),
    events: z.array(z.string()).meta({ description: 'What it receives: event names (`contact.created`), an object’s wildcard (`deal.*`) or `*`' }),
    description: z.string(),
    enabled: z.boolean(),
    disabled_reason: z.string().optional().meta({ description: 'Why the service disabled it (410, the retry schedule run out, the outbox cap); absent when enabled or disabled by the account' }),
    disabled_time: epoch('When it was disabled').optional(),
    created_time: epoch('When it was created'),
    updated_time: epoch('When it last changed'),
    secret: z.string().optional().meta({ description: 'The signing secret (`whsec_…`): only in the answer of create and rotate-secret, never again' }),
  })
  .meta({ id: 'Webhook' });

export const webhookListOutput = xmlList(webhookOutput, XML_NAMES.webhooks);

export const attemptOutput = z
  .strictObject({
    time: epoch('When the attempt was made'),
    status: z.number().int().optional().meta({ description: 'The receiver’s HTTP status; absent when no answer came' }),
    duration_ms: z.number().int(),
    response: z.string().meta({ description: 'The first 1 kB of the answer, as text' }),
    error: z.string().optional().meta({ description: 'Why no answer came (timeout, refused, unreachable)' }),
  })
  .meta({ id: 'WebhookAttempt' });

export const deliveryOutput = z
  .strictObject({
    id: z.string().meta({ description: '`dlv_…`: this delivery (a replay is a new one)' }),
    webhook_id: z.number().int(),
    message_id: z.string().meta({ description: 'The `webhook-id` header (`msg_…`): the same on every attempt and replay' }),
    event: z.string().meta({ description: '`contact.created`, …, or `webhook.test`' }),
    state: z.enum(['pending', 'delivered', 'failed', 'cancelled']),
    attempts: z.number().int().meta({ description: 'Attempts made' }),
    created_time: epoch('When the event was recorded'),
    next_attempt_time: epoch('When it is attempted next (pending only)').optional(),
    last_attempt: attemptOutput.optional(),
    reason: z.string().optional().meta({ description: 'Why it failed or was cancelled' }),
    replay_of: z.string().optional().meta({ description: 'The delivery this one replays' }),
    log: z.array(attemptOutput).optional().meta({ description: 'Single delivery only: its last 20 attempts, oldest first' }),
    cursor: z.string().optional().meta({ description: 'On the last item when another page exists' }),
  })
  .meta({ id: 'WebhookDelivery' });

export const deliveryListOutput = xmlList(deliveryOutput, XML_NAMES.deliveries);
