import { pathId, queryInt, z } from '@lib/validation';
import { MAX_EVENT_PATTERNS } from './webhook-events';
import { MAX_DESCRIPTION_LENGTH, MAX_URL_LENGTH } from './webhook.service';

/** A delivery id as the API shows it: `dlv_` and a ULID. */
export const DELIVERY_ID = /^dlv_[0-9A-HJKMNP-TV-Z]{26}$/;

const url = z.string().max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`).meta({ description: 'https (http only to WEBHOOK_ALLOWED_HOSTS, or with NODE_ENV=development)' });
const events = z
  .array(z.string().max(100, 'must be at most 100 characters'))
  .max(MAX_EVENT_PATTERNS, `holds at most ${MAX_EVENT_PATTERNS} entries`)
  .meta({ description: 'Event names (`contact.created`, or the original’s "Contact is Created"), wildcards (`deal.*`) or `*`' });
const description = z.string().max(MAX_DESCRIPTION_LENGTH, `must be at most ${MAX_DESCRIPTION_LENGTH} characters`);

/** POST /dev/api/webhooks. */
export const webhookInput = z.strictObject({ url, events, description: description.optional() });
export type WebhookCreate = z.output<typeof webhookInput>;

/** PUT /dev/api/webhooks/{id}: the sent fields change, at least one. */
export const webhookChanges = z
  .strictObject({ url: url.optional(), events: events.optional(), description: description.optional(), enabled: z.boolean().optional() })
  .refine((body) => Object.values(body).some((value) => value !== undefined), 'must change at least one of url, events, description, enabled');

export const webhookParams = z.strictObject({ id: pathId });
export const deliveryParams = z.strictObject({
  id: pathId,
  delivery_id: z.string().regex(DELIVERY_ID, 'must be a delivery id (dlv_…)'),
});

/** Deliveries per page at most. */
export const DELIVERY_PAGE_MAX = 100;
export const deliveryListQuery = z.strictObject({
  page_size: queryInt({ min: 1, max: DELIVERY_PAGE_MAX, description: `Deliveries per page (default 20, at most ${DELIVERY_PAGE_MAX}), newest first` }).default(20),
  cursor: z
    .string()
    .regex(DELIVERY_ID, 'must be the cursor of the last delivery of the previous page')
    .optional()
    .or(z.literal('').transform(() => undefined))
    .meta({ description: 'The cursor of the last delivery of the previous page; absent or empty for the first page' }),
});
