import { forbidden } from '@lib/errors';
import { xmlRoot, type AnyRoute } from '@lib/routing';
import type { DomainUserDoc } from '../accounts/domain-user.model';
import { defineRoute } from '../define-route';
import { BODY_LIMITS } from '../http/body-limits';
import { commonErrors, errorOutput, noContent } from '../http/errors.outputs';
import { XML_NAMES } from '../http/xml-names';
import { deliveryListOutput, deliveryOutput, webhookListOutput, webhookOutput } from './webhook.outputs';
import { deliveryListQuery, deliveryParams, webhookChanges, webhookInput, webhookParams } from './webhook.schemas';
import type { WebhookService } from './webhook.service';
import { deliveryView, webhookView } from './webhook.view';

const TAGS = ['webhooks'];
const BASE = '/dev/api/webhooks';

const error = (description: string) => ({ description, schema: errorOutput });
const managerErrors = { ...commonErrors, 403: error('The caller is neither the account owner nor an admin: only they manage webhooks') };
const route = defineRoute.group({ auth: 'basic', tags: TAGS, responses: managerErrors });
const notFound = error('No webhook (`webhook_not_found`) or delivery (`delivery_not_found`) with that id in this account');
const one = { description: 'The webhook', schema: xmlRoot(webhookOutput, XML_NAMES.webhook.root) };
const withSecret = { description: 'The webhook with its signing secret (`secret`, shown this once)', schema: xmlRoot(webhookOutput, XML_NAMES.webhook.root) };
const oneDelivery = (description: string) => ({ description, schema: xmlRoot(deliveryOutput, XML_NAMES.delivery.root) });

/** Only the account owner and admins manage webhooks (they decide where the account's data goes). */
function assertManager(user: DomainUserDoc): void {
  if (!user.is_account_owner && !user.is_admin) throw forbidden('Only the account owner or an admin manages webhooks');
}

/** The management API of webhooks (README "Webhooks"). */
export function webhookRoutes(webhooks: WebhookService): AnyRoute[] {
  return [
    route.post(BASE, {
      summary: 'Create a webhook (answered with its secret, this once)',
      description: 'Body `{"url": "https://…", "events": ["contact.*", "Opportunity is Created"], "description": "…"}`. At most 20 webhooks per account (409 `webhook_limit`).',
      request: { body: xmlRoot(webhookInput, XML_NAMES.webhook.root), bodyLimit: BODY_LIMITS.fields },
      responses: { 200: withSecret, 409: error('The account has its 20 webhooks (`webhook_limit`)') },
      handler: async ({ body, user, store }) => {
        assertManager(user);
        const { webhook, secret } = await webhooks.create(store, body);
        return { status: 200, body: webhookView(webhook, secret) };
      },
    }),
    route.get(BASE, {
      summary: 'The webhooks of the account, oldest first (at most 20: not paged)',
      responses: { 200: { description: 'Every webhook of the account (`[]` when none)', schema: webhookListOutput } },
      handler: async ({ user, store }) => {
        assertManager(user);
        return { status: 200, body: (await webhooks.list(store, 100)).map((doc) => webhookView(doc)) };
      },
    }),
    route.get(`${BASE}/:id`, {
      summary: 'One webhook',
      request: { params: webhookParams },
      responses: { 200: one, 404: notFound },
      handler: async ({ params, user, store }) => {
        assertManager(user);
        return { status: 200, body: webhookView(await webhooks.get(store, params.id)) };
      },
    }),
    route.put(`${BASE}/:id`, {
      summary: 'Change a webhook: any of url, events, description, enabled',
      description: 'Disabling cancels its pending deliveries; enabling clears the reason the service disabled it for.',
      request: { params: webhookParams, body: xmlRoot(webhookChanges, XML_NAMES.webhook.root), bodyLimit: BODY_LIMITS.fields },
      responses: { 200: one, 404: notFound },
      handler: async ({ params, body, user, store }) => {
        assertManager(user);
        return { status: 200, body: webhookView(await webhooks.update(store, params.id, body)) };
      },
    }),
    route.delete(`${BASE}/:id`, {
      summary: 'Delete a webhook (its pending deliveries are cancelled)',
      request: { params: webhookParams },
      responses: { 204: noContent, 404: notFound },
      handler: async ({ params, user, store }) => {
        assertManager(user);
        await webhooks.remove(store, params.id);
        return { status: 204 };
      },
    }),
    route.post(`${BASE}/:id/rotate-secret`, {
      summary: 'A new signing secret (answered this once); the previous ones sign too for 24 h',
      request: { params: webhookParams },
      responses: { 200: withSecret, 404: notFound },
      handler: async ({ params, user, store }) => {
        assertManager(user);
        const { webhook, secret } = await webhooks.rotateSecret(store, params.id);
        return { status: 200, body: webhookView(webhook, secret) };
      },
    }),
    route.post(`${BASE}/:id/test`, {
      summary: 'Send the webhook a `webhook.test` event (once, no retries)',
      request: { params: webhookParams },
      responses: {
        202: oneDelivery('The test delivery, pending: follow it in the delivery log'),
        404: notFound,
        409: error('The webhook is disabled (`webhook_disabled`)'),
        429: error('The account has 50,000 deliveries waiting (`delivery_limit`, Retry-After)'),
      },
      handler: async ({ params, user, store }) => {
        assertManager(user);
        return { status: 202, body: deliveryView(await webhooks.sendTest(store, params.id)) };
      },
    }),
    route.get(`${BASE}/:id/deliveries`, {
      summary: 'The delivery log of a webhook, newest first (deliveries expire 7 days after they end)',
      request: { params: webhookParams, query: deliveryListQuery },
      responses: { 200: { description: 'A page of deliveries (`cursor` on the last when more follow; `[]` when none)', schema: deliveryListOutput }, 404: notFound },
      handler: async ({ params, query, user, store }) => {
        assertManager(user);
        const found = await webhooks.deliveries(store, params.id, query.page_size + 1, query.cursor);
        const page = found.slice(0, query.page_size).map((doc) => deliveryView(doc));
        if (found.length > query.page_size) page[page.length - 1].cursor = page[page.length - 1].id;
        return { status: 200, body: page };
      },
    }),
    route.get(`${BASE}/:id/deliveries/:delivery_id`, {
      summary: 'One delivery with its attempt log',
      request: { params: deliveryParams },
      responses: { 200: oneDelivery('The delivery and its last 20 attempts'), 404: notFound },
      handler: async ({ params, user, store }) => {
        assertManager(user);
        return { status: 200, body: deliveryView(await webhooks.delivery(store, params.id, params.delivery_id), true) };
      },
    }),
    route.post(`${BASE}/:id/deliveries/:delivery_id/replay`, {
      summary: 'Send an ended delivery again, once, with the same webhook-id and body',
      request: { params: deliveryParams },
      responses: {
        202: oneDelivery('The new delivery (`replay_of` the first), pending'),
        404: notFound,
        409: error('The delivery is still pending (`delivery_pending`) or the webhook is disabled (`webhook_disabled`)'),
        429: error('The account has 50,000 deliveries waiting (`delivery_limit`, Retry-After)'),
      },
      handler: async ({ params, user, store }) => {
        assertManager(user);
        return { status: 202, body: deliveryView(await webhooks.replay(store, params.id, params.delivery_id)) };
      },
    }),
  ];
}
