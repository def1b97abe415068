import type { AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import { errorResponse } from '../error-schema';
import { createKeyBody, keyList, keyParams, keysQuery, newKeyOutput, usageOutput, usageQuery } from './api-key.schemas';
import type { ApiKeyService } from './api-key.service';
import { keyView, newKeyView, usageView } from './api-key.view';

const signedOut = errorResponse('No token, or an expired, altered or unknown-user token (an API key does not manage keys)');

const keyRoute = defineRoute.group({ auth: 'bearer', tags: ['keys'], responses: { 401: signedOut } });

/** A signed-in user's own API keys and their usage; nobody sees or deletes another user's. */
export function apiKeyRoutes(keys: ApiKeyService, options: { dailyQuota: number }): AnyRoute[] {
  return [
    keyRoute.post('/users/me/keys', {
      summary: 'Create an API key for GET /news and GET /companies; the key is in this answer only',
      description: 'Form or JSON field `name`. The key (`nk_…`) is shown once and stored as its SHA-256 hash: keep it. At most 10 keys per user.',
      request: { body: createKeyBody, bodyTypes: ['form', 'json'] },
      responses: {
        201: { description: 'The new key, with the key itself (shown this once)', schema: newKeyOutput },
        400: errorResponse('A missing, empty or too long name, or an unknown field'),
        409: errorResponse('The user already has the most keys a user may have (key_limit_reached)'),
      },
      handler: async ({ user, body }) => {
        const { doc, key } = await keys.create(user._id, body.name);
        return { status: 201, body: newKeyView(doc, key), headers: { Location: `/users/me/keys/${doc._id}`, 'Cache-Control': 'no-store' } };
      },
    }),
    keyRoute.get('/users/me/keys', {
      summary: "The signed-in user's API keys (never the keys themselves)",
      request: { query: keysQuery },
      responses: { 200: { description: 'Every key of the user, oldest first', schema: keyList } },
      handler: async ({ user }) => {
        const data = (await keys.list(user._id)).map(keyView);
        return { status: 200, body: { total: data.length, data } };
      },
    }),
    keyRoute.delete('/users/me/keys/:id', {
      summary: 'Revoke an API key: refused at once on this replica, within 1 s on every other; its usage goes with it',
      request: { params: keyParams, query: keysQuery },
      responses: {
        204: { description: 'Revoked' },
        400: errorResponse('Bad id'),
        404: errorResponse('The user has no key with that id (another user\'s key is not found either)'),
      },
      handler: async ({ user, params }) => {
        await keys.remove(user._id, params.id);
        return { status: 204 };
      },
    }),
    keyRoute.get('/users/me/usage', {
      summary: "Requests of each of the signed-in user's API keys per UTC day",
      request: { query: usageQuery },
      responses: {
        200: { description: 'One row per key and day with requests, newest day first', schema: usageOutput },
        400: errorResponse('Bad days'),
      },
      handler: async ({ user, query }) => ({ status: 200, body: usageView(await keys.usage(user._id, query.days), options.dailyQuota) }),
    }),
  ];
}
