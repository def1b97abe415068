import { HttpError } from '@lib/errors';
import type { Request, RequestHandler, Response } from 'express';
import { toXml } from './xml';

export type MediaKind = 'json' | 'xml';

const MEDIA: Record<MediaKind, string> = { json: 'application/json', xml: 'application/xml' };
/** The types in order of preference, made once (req.accepts does not change them). */
const JSON_FIRST = [MEDIA.json, MEDIA.xml];
const XML_FIRST = [MEDIA.xml, MEDIA.json];

const acceptDisregarded = new WeakSet<Request>();

/**
 * What each Accept header picks, per fallback. Clients send a handful of distinct headers, and
 * parsing one (req.accepts: an Accepts and a Negotiator object, a split and a regex per entry) costs
 * more than the rest of negotiate; a remembered answer is one Map lookup. Bounded: headers up to
 * 256 characters, 64 of them, emptied when full, so a client cycling through made-up headers costs
 * a parse each, as before, and at most 32 KB per fallback.
 */
const REMEMBERED_ACCEPTS = 64;
const REMEMBERED_ACCEPT_LENGTH = 256;
const pickedByAccept: Record<MediaKind, Map<string, MediaKind | undefined>> = { json: new Map(), xml: new Map() };

function picked(req: Request, accept: string, fallback: MediaKind): MediaKind | undefined {
  const remembered = pickedByAccept[fallback];
  if (remembered.has(accept)) return remembered.get(accept);
  const chosen = req.accepts(fallback === 'xml' ? XML_FIRST : JSON_FIRST);
  const kind = chosen === MEDIA.xml ? 'xml' : chosen === MEDIA.json ? 'json' : undefined;
  if (accept.length > REMEMBERED_ACCEPT_LENGTH) return kind;
  if (remembered.size >= REMEMBERED_ACCEPTS) remembered.clear();
  remembered.set(accept, kind);
  return kind;
}

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
  const accept = req.headers.accept;
  if (!accept) return fallback;
  const chosen = picked(req, accept, fallback);
  if (chosen) return chosen;
  if (acceptDisregarded.has(req)) return fallback;
  throw new HttpError(406, 'not_acceptable', 'This endpoint answers application/json or application/xml');
}

export interface SendOptions {
  /** Root element name when answering XML. */
  root: string;
  /** Element name of each entry when the body is a list. */
  item?: string;
  fallback?: MediaKind;
}

function varyByAccept(res: Response): void {
  // vary() parses the Vary header already set; usually there is none
  if (res.hasHeader('Vary')) res.vary('Accept');
  else res.setHeader('Vary', 'Accept');
}

/** Sends `body` as JSON or XML, as the client asked. */
export function send(req: Request, res: Response, status: number, body: unknown, options: SendOptions): void {
  res.status(status);
  varyByAccept(res);
  if (negotiate(req, options.fallback) === 'xml') {
    res.type('application/xml').send(toXml(body, options.root, options.item));
  } else {
    res.json(body);
  }
}

/** Sends JSON or XML text already written (by a route that measured it as it wrote it: see ListText), in the kind negotiation chose. */
export function sendText(res: Response, status: number, kind: MediaKind, text: string): void {
  res.status(status);
  varyByAccept(res);
  res.type(MEDIA[kind]).send(text);
}
