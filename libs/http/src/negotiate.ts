import { HttpError } from '@lib/errors';
import { mergedResponses, xmlNamesOf, type AnyRoute, type MediaKind, type ReplyFormat, type RouteResponse } from '@lib/routing';
import type { Request, RequestHandler } from 'express';
import { toXml } from './xml';

export type { MediaKind } from '@lib/routing';

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

/**
 * How an app that answers JSON and XML writes its answers: in the type the Accept header asks for
 * (the route's `defaultMedia` when it names neither), XML in the element names the response schema
 * declares (xmlRoot, xmlList), `Vary: Accept` on every answer with a body.
 */
export const jsonOrXmlFormat: ReplyFormat = {
  negotiates: true,
  mediaOf: (req, route) => negotiate(req, route.defaultMedia),
  serialize(route, status, body, media) {
    if (media === 'json') return JSON.stringify(body);
    const names = xmlNamesOf(route.responses[status]?.schema, body);
    if (!names) throw new Error(`${route.method.toUpperCase()} ${route.path}: the schema of its ${status} declares no XML element name (xmlRoot, xmlList)`);
    return toXml(body, names.root, names.item);
  },
};

/**
 * 406 before the handler runs, not when it answers: a write (or a record made on first use) must
 * not happen for a request whose answer the caller refuses.
 */
const acceptable =
  (fallback?: MediaKind): RequestHandler =>
  (req, _res, next) => {
    negotiate(req, fallback);
    next();
  };

/** Deletes, and routes whose every success is a 204: their answer does not depend on Accept. */
const bodiless = (route: AnyRoute) =>
  route.method === 'delete' || Object.keys(route.responses).every((status) => !status.startsWith('2') || status === '204');

/** Every body a route takes as JSON it also takes as XML (`application/xml`, `text/xml`). */
function withXml(request: AnyRoute['request']): AnyRoute['request'] {
  if (!request?.body) return request;
  const types = request.bodyTypes ?? ['json'];
  return types.includes('json') ? { ...request, bodyTypes: [...types, 'xml'] } : request;
}

/**
 * The routes of an app that answers JSON and XML: each reads XML bodies too, and refuses (406,
 * documented as `notAcceptable`) an Accept it cannot answer before it runs; a bodiless route
 * disregards Accept instead.
 */
export const negotiatedRoutes = (routes: AnyRoute[], notAcceptable: RouteResponse): AnyRoute[] =>
  routes.map((route) => ({
    ...route,
    request: withXml(route.request),
    before: [bodiless(route) ? disregardAccept : acceptable(route.defaultMedia), ...(route.before ?? [])],
    responses: bodiless(route) ? route.responses : mergedResponses({ 406: notAcceptable }, route.responses),
  }));
