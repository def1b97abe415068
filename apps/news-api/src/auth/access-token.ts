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
