import { z } from '@lib/validation';
import type { Request } from 'express';

/**
 * `access_token` may travel in the query or the body (as in the generator this service descends
 * from): the master key on POST /users, POST /auth and POST /news/sync, or a user's JWT anywhere.
 */
export const accessTokenField = {
  access_token: z.string().max(4096).optional().meta({ description: 'The master key or a token, when not sent in a header' }),
};

/** The `access_token` of the body, else of the query. */
export function accessTokenOf(req: Request): string | undefined {
  const fromBody = (req.body as Record<string, unknown> | undefined)?.access_token;
  if (typeof fromBody === 'string') return fromBody;
  const fromQuery = (req.query as Record<string, unknown>).access_token;
  return typeof fromQuery === 'string' ? fromQuery : undefined;
}

/** The token of an `Authorization: Bearer` header. */
export function bearerOf(req: Request): string | undefined {
  const header = req.headers.authorization;
  return typeof header === 'string' && /^Bearer /i.test(header) ? header.slice(7).trim() : undefined;
}
