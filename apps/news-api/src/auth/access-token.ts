import { bearerToken } from '@lib/http';
import { z } from '@lib/validation';
import type { Request } from 'express';

/**
 * `access_token` may travel in the query or the body (as in the generator this service descends
 * from): the master key on POST /users, POST /auth and POST /news/sync, or a user's JWT anywhere.
 */
export const accessTokenField = {
  access_token: z.string().max(4096).optional().meta({ description: 'The master key or a token, when not sent in a header' }),
};

const accessTokenIn = (source: unknown): string | undefined => {
  const value = (source as Record<string, unknown> | undefined)?.access_token;
  return typeof value === 'string' ? value : undefined;
};

/** The `access_token` of the body, else of the query. */
export function accessTokenOf(req: Request): string | undefined {
  return accessTokenIn(req.body) ?? accessTokenIn(req.query);
}

/** A user's token: the `Authorization: Bearer` header, else the query's `access_token`, else the body's (the first not empty). */
export function userTokenOf(req: Request): string | undefined {
  return bearerToken(req.headers) || accessTokenIn(req.query) || accessTokenIn(req.body) || undefined;
}

/** The longest API key accepted as input: a key is `nk_` + an id of up to 16 digits + `_` + 43 characters. */
const API_KEY_MAX = 128;

/** Routes that take an API key (GET /news, GET /news/{id}, GET /companies) accept it in the query too, as NewsAPI does. */
export const apiKeyField = {
  apiKey: z.string().max(API_KEY_MAX).optional().meta({ description: 'An API key (POST /users/me/keys), when not sent as X-Api-Key' }),
};

/** The API key a request presents: the `X-Api-Key` header, else the `apiKey` query parameter; undefined when neither is sent. */
export function apiKeyOf(req: Request): string | undefined {
  const header = req.headers['x-api-key'];
  if (header !== undefined) return Array.isArray(header) ? header.join(', ') : header;
  const query = (req.query as Record<string, unknown>).apiKey;
  if (query === undefined) return undefined;
  return typeof query === 'string' ? query : '';
}
