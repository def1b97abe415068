import { HttpError } from '@lib/errors';
import type { Request, RequestHandler, Response } from 'express';
import { toXml } from './xml';

export type MediaKind = 'json' | 'xml';

const MEDIA: Record<MediaKind, string> = { json: 'application/json', xml: 'application/xml' };

const acceptDisregarded = new WeakSet<Request>();

/**
 * For routes whose answer has no body (204) or is not read (deletes): an Accept naming neither JSON
 * nor XML is disregarded instead of refused (RFC 9110 allows either), so `Accept: text/plain` on a
 * DELETE still deletes. Whatever body there is then goes as the fallback, JSON.
 */
export const disregardAccept: RequestHandler = (req, _res, next) => {
  acceptDisregarded.add(req);
  next();
};

/**
 * Picks JSON or XML from the Accept header. With no Accept header the `fallback` wins (the CRM
 * contact list defaults to XML); an Accept naming neither is a 406 (see disregardAccept).
 */
export function negotiate(req: Request, fallback: MediaKind = 'json'): MediaKind {
  if (!req.headers.accept) return fallback;
  const order: MediaKind[] = fallback === 'xml' ? ['xml', 'json'] : ['json', 'xml'];
  const chosen = req.accepts(order.map((kind) => MEDIA[kind]));
  if (!chosen && acceptDisregarded.has(req)) return fallback;
  if (!chosen) throw new HttpError(406, 'not_acceptable', 'This endpoint answers application/json or application/xml');
  return chosen === MEDIA.xml ? 'xml' : 'json';
}

export interface SendOptions {
  /** Root element name when answering XML. */
  root: string;
  /** Element name of each entry when the body is a list. */
  item?: string;
  fallback?: MediaKind;
}

/** Sends `body` as JSON or XML, as the client asked. */
export function send(req: Request, res: Response, status: number, body: unknown, options: SendOptions): void {
  res.status(status).vary('Accept');
  if (negotiate(req, options.fallback) === 'xml') {
    res.type('application/xml').send(toXml(body, options.root, options.item));
  } else {
    res.json(body);
  }
}
