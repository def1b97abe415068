import type { AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import { errorBody } from '../error-schema';
import { createKeyBody, keyList, keyParams, keysQuery, newKeyOutput, usageOutput, usageQuery } from './api-key.schemas';
import type { ApiKeyService } from './api-key.service';
import { keyView, newKeyView, usageView } from './api-key.view';

const signedOut = { description: 'No token, or an expired, altered or unknown-user token (an API key does not manage keys)', schema: errorBody };

/** A signed-in user's own API keys and their usage; nobody sees or deletes another user's. */
export function apiKeyRoutes(keys: ApiKeyService, options: { dailyQuota: number }): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/users/me/keys',
      auth: 'bearer',
      summary: 'Create an API key for GET /news and GET /companies; the key is in this answer only',
      description: 'Form or JSON field `name`. The key (`nk_…`) is shown once and stored as its SHA-256 hash: keep it. At most 10 keys per user.',
      tags: ['keys'],
      request: { body: createKeyBody, bodyTypes: ['form', 'json'] },
      responses: {
        201: { description: 'The new key, with the key itself (shown this once)', schema: newKeyOutput },
        400: { description: 'A missing, empty or too long name, or an unknown field', schema: errorBody },
        401: signedOut,
        409: { description: 'The user already has the most keys a user may have (key_limit_reached)', schema: errorBody },
      },
      handler: async ({ user, body }) => {
        const { doc, key } = await keys.create(user._id, body.name);
        return { status: 201, body: newKeyView(doc, key), headers: { Location: `/users/me/keys/${doc._id}`, 'Cache-Control': 'no-store' } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/users/me/keys',
      auth: 'bearer',
      summary: "The signed-in user's API keys (never the keys themselves)",
      tags: ['keys'],
      request: { query: keysQuery },
      responses: { 200: { description: 'Every key of the user, oldest first', schema: keyList }, 401: signedOut },
      handler: async ({ user }) => {
        const data = (await keys.list(user._id)).map(keyView);
        return { status: 200, body: { total: data.length, data } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/users/me/keys/:id',
      auth: 'bearer',
      summary: 'Revoke an API key: refused at once on this replica, within 1 s on every other; its usage goes with it',
      tags: ['keys'],
      request: { params: keyParams, query: keysQuery },
      responses: {
        204: { description: 'Revoked' },
        400: { description: 'Bad id', schema: errorBody },
        401: signedOut,
        404: { description: 'The user has no key with that id (another user\'s key is not found either)', schema: errorBody },
      },
      handler: async ({ user, params }) => {
        await keys.remove(user._id, params.id);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/users/me/usage',
      auth: 'bearer',
      summary: "Requests of each of the signed-in user's API keys per UTC day",
      tags: ['keys'],
      request: { query: usageQuery },
      responses: {
        200: { description: 'One row per key and day with requests, newest day first', schema: usageOutput },
        400: { description: 'Bad days', schema: errorBody },
        401: signedOut,
      },
      handler: async ({ user, query }) => ({ status: 200, body: usageView(await keys.usage(user._id, query.days), options.dailyQuota) }),
    }),
  ];
}
