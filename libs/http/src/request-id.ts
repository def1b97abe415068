import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const ACCEPTABLE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps a sane incoming `X-Request-Id` (a gateway's), or makes one; echoes it on the response. */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && ACCEPTABLE_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}
