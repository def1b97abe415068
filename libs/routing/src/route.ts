import { HttpError } from '@lib/errors';
import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler, Response, Router } from 'express';
import type { z } from 'zod';
import { checkingResponses, checkReply } from './response-check';
import { assertSafeInput, parseOrThrow, XML_MEDIA_TYPES, xmlInput } from '@lib/validation';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type BodyType = 'json' | 'form' | 'xml';

export const BODY_MEDIA_TYPES: Record<BodyType, string> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  xml: 'application/xml',
};

/** Every content type a body type is read from (`text/xml` is XML too). */
export const BODY_CONTENT_TYPES: Record<BodyType, string[]> = { json: ['application/json'], form: ['application/x-www-form-urlencoded'], xml: XML_MEDIA_TYPES };

export interface RouteResponse {
  description: string;
  schema?: z.ZodType;
}

/** Responses of one schema under their own descriptions (an app's error body): `const errorResponse = responseOf(errorBody)`, then `404: errorResponse('No user with that id')`. */
export const responseOf =
  <Z extends z.ZodType>(schema: Z) =>
  (description: string) => ({ description, schema });

/** The responses a route declares, by status. */
export type Responses = Record<number, RouteResponse>;

/**
 * The responses of each part in one object, a later part's status winning: what every merge of
 * a route's responses goes through. V8 keeps an object's integer keys in an array as long as the
 * largest key (about 600 slots for a route that answers 503, 2.4 KB), unless one of them is not
 * configurable: then in a dictionary of what is there. Each app holds two such objects per route
 * for its life (crm-api: 1.1 MB of heap, 0.1 this way).
 */
export function mergedResponses(...parts: Array<Responses | undefined>): Responses {
  const merged: Responses = {};
  for (const part of parts)
    for (const [status, response] of Object.entries(part ?? {})) Object.defineProperty(merged, status, { value: response, enumerable: true, writable: true, configurable: false });
  return merged;
}

/** Headers a handler's answer sets besides the body's type (Location, Link, Retry-After, RateLimit…). */
export type ReplyHeaders = Record<string, string>;

/** The answer for one declared status: a body its schema types, or none when it declares no schema. */
type ReplyOf<S extends number, D> = D extends { schema: infer Z extends z.ZodType }
  ? {
      status: S;
      body: z.input<Z>;
      headers?: ReplyHeaders;
      /** The body already written in `ctx.media` (a page measured against its byte budget as it was written): sent instead of writing `body` again. */
      text?: string;
    }
  : { status: S; body?: undefined; headers?: ReplyHeaders };

/**
 * What a handler returns: one of the statuses its route declares, with a body of that status's
 * schema (compile-time, as ts-rest does; the response check validates it at run time in tests).
 * The reply path renders it (JSON or XML per Accept) and is the only writer of the response.
 */
export type Reply<R extends Responses = Responses> = { [S in Extract<keyof R, number>]: ReplyOf<S, R[S]> }[Extract<keyof R, number>];

/** A reply of any route, as the reply path sees it. */
export interface AnyReply {
  status: number;
  body?: unknown;
  headers?: ReplyHeaders;
  text?: string;
}

/** What every handler gets: the validated input, the media type its answer will be written in, and the request; its auth scheme adds the rest (ContextOf). */
export interface RouteInput<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType> {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  media: MediaKind;
  req: Request;
}

/** The handler context of a route: its input plus what its auth scheme signed in (`user`, an account-bound `store`…). */
export type RouteContext<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType, C extends object = { user?: unknown }> = RouteInput<P, Q, B> & C;

/** The auth of a route that anyone may call (OpenAPI `security: []`). */
export const PUBLIC = 'public';

/** What a public route's handler gets from its (absent) auth scheme. */
export type PublicContext = { user: undefined };

/**
 * One way an app lets callers in, named in its routes' `auth`: the middleware that checks the
 * caller, the OpenAPI security requirement it stands for (alternatives; an array inside is one
 * requirement naming several schemes that must all be sent), and what the handler context gets
 * from it (the signed-in user; for tenant data an account-bound store), made once per request.
 */
export interface AuthScheme<C extends object = object> {
  before: RequestHandler[];
  security: Array<string | string[]>;
  context?: (req: Request) => C;
  /** Answers the scheme gives (401, 429), documented on each of its routes unless the route describes them itself. */
  responses?: Record<number, RouteResponse>;
}

/** Content negotiation of a route whose app answers XML too: the media type when Accept names none. */
export type MediaKind = 'json' | 'xml';

/**
 * One row of an app's route table: everything needed to serve the route, validate its input and
 * describe it in OpenAPI. Routers are built from these tables and nothing else.
 */
export interface Route<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType, C extends object = object, R extends Responses = Responses>
  extends RouteRow<P, Q, B, C, R> {
  /** Who may call: PUBLIC or the name of one of the app's auth schemes (its middleware, its OpenAPI security, its context). */
  auth: string;
}

/** A route as a row of a route group writes it: without the auth (and, when the group gives them, the tags) its group shares. */
export interface RouteRow<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType, C extends object = object, R extends Responses = Responses>
  extends Operation<P, Q, B, C, R> {
  method: HttpMethod;
  path: string;
}

/** What a route does at its method and path (`group.get(path, operation)`). */
export interface Operation<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType, C extends object = object, R extends Responses = Responses> {
  summary: string;
  description?: string;
  tags?: string[];
  /** OpenAPI operationId; derived from the method and path when absent. */
  operationId?: string;
  /** Admitted through the heavy-request gate like a paged list: its answer may be megabytes. */
  heavy?: boolean;
  /** Middleware that runs after the auth scheme's and before validation (rate limits, body parsing for auth). */
  before?: RequestHandler[];
  /** `bodyLimit`: the largest body this route takes (e.g. '64kb'), when smaller than the app's. */
  request?: { params?: P; query?: Q; body?: B; bodyTypes?: BodyType[]; bodyLimit?: string };
  responses: R;
  /** In an app that answers XML too: what an absent Accept gets (JSON unless the spec says otherwise). */
  defaultMedia?: MediaKind;
  /** Returns the answer; never writes the response (the reply path does). */
  handler(ctx: RouteContext<P, Q, B, C>): Reply<R> | Promise<Reply<R>>;
}

/** A route whose auth was resolved against the app's schemes (resolveAuth): what is mounted and documented. */
export interface AnyRoute extends Omit<Route, 'handler'> {
  /** Filled by resolveAuth from the route's auth scheme; [] on public routes. */
  security?: AuthScheme['security'];
  context?: (req: Request) => object;
  handler(ctx: RouteContext<z.ZodType, z.ZodType, z.ZodType, object>): AnyReply | Promise<AnyReply>;
}

type ContextOf<Contexts, A> = A extends keyof Contexts ? Contexts[A] : PublicContext;

/**
 * The `defineRoute` of an app whose auth schemes give the handler contexts of `Contexts` (scheme
 * name → what its context holds, e.g. `{ user: DomainUserDoc; store: CrmStore }`); `auth: PUBLIC`
 * gives `{ user: undefined }`. The handler's answer is typed by the route's `responses`.
 */
export function routeDefiner<Contexts extends Record<string, object>>() {
  const define = <
    P extends z.ZodType = z.ZodType,
    Q extends z.ZodType = z.ZodType,
    B extends z.ZodType = z.ZodType,
    A extends Extract<keyof Contexts, string> | typeof PUBLIC = typeof PUBLIC,
    R extends Responses = Responses,
  >(
    route: Route<P, Q, B, ContextOf<Contexts, A> & object, R> & { auth: A },
  ): AnyRoute => route as unknown as AnyRoute;
  /**
   * The routes of a table that share their auth, tags and the responses each of them can give
   * (e.g. 400 for bad input): `group.get(path, operation)` (or `group({ method, path, ...operation })`)
   * states only what is the route's own; its own tags and responses win.
   */
  const group = <A extends Extract<keyof Contexts, string> | typeof PUBLIC>(shared: { auth: A; tags?: string[]; responses?: Responses }) => {
    type C = ContextOf<Contexts, A> & object;
    const row = <P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType, R extends Responses = Responses>(route: RouteRow<P, Q, B, C, R>): AnyRoute =>
      ({ ...route, auth: shared.auth, tags: route.tags ?? shared.tags, responses: mergedResponses(shared.responses, route.responses) }) as unknown as AnyRoute;
    const at =
      (method: HttpMethod) =>
      <P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType, R extends Responses = Responses>(path: string, operation: Operation<P, Q, B, C, R>): AnyRoute =>
        row<P, Q, B, R>({ ...operation, method, path });
    return Object.assign(row, { get: at('get'), post: at('post'), put: at('put'), patch: at('patch'), delete: at('delete') });
  };
  return Object.assign(define, { group });
}

/** Routes of no app's schemes: public ones (health, the OpenAPI document) or those given their `security` by hand. */
export const defineRoute = routeDefiner<Record<never, object>>();

/** Each route with its auth scheme's middleware first, its OpenAPI security and its context; an unknown scheme is an error at start. */
export function resolveAuth(routes: AnyRoute[], schemes: Record<string, AuthScheme> = {}): AnyRoute[] {
  return routes.map((route) => {
    if (route.security !== undefined) return route;
    if (route.auth === PUBLIC) return { ...route, security: [] };
    const scheme = schemes[route.auth];
    if (!scheme) throw new Error(`${route.method.toUpperCase()} ${route.path}: auth '${route.auth}' is not one of the app's schemes (${Object.keys(schemes).join(', ')})`);
    return {
      ...route,
      before: [...scheme.before, ...(route.before ?? [])],
      security: scheme.security,
      context: scheme.context,
      responses: mergedResponses(scheme.responses, route.responses),
    };
  });
}

/** Whether the request carries a body (chunked, or a Content-Length over 0). */
export function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

function readBody(route: AnyRoute, req: Request): unknown {
  if (!hasBody(req)) return {};
  const types = route.request?.bodyTypes ?? ['json'];
  const mediaTypes = types.flatMap((t) => BODY_CONTENT_TYPES[t]);
  if (!req.is(mediaTypes)) {
    const sent = req.headers['content-type'] ?? 'none';
    throw new HttpError(415, 'unsupported_media_type', `Content-Type must be ${mediaTypes.join(' or ')} (got ${sent})`);
  }
  if (types.includes('xml') && req.is(XML_MEDIA_TYPES)) return xmlInput(typeof req.body === 'string' ? req.body : '', route.request!.body!);
  return req.body;
}

const PUBLIC_CONTEXT: PublicContext = { user: undefined };

function validateInput(route: AnyRoute, req: Request, media: MediaKind): RouteContext<z.ZodType, z.ZodType, z.ZodType, object> {
  const { params, query, body } = route.request ?? {};
  // Express 5's req.query parses the query string again on every read: read it once
  const rawQuery: unknown = req.query;
  const input: RouteInput = { params: req.params as unknown, query: rawQuery, body: undefined as unknown, media, req };
  assertSafeInput(req.params, 'params');
  if (params) input.params = parseOrThrow(params, req.params, 'params');
  if (query) {
    assertSafeInput(rawQuery, 'query');
    input.query = parseOrThrow(query, rawQuery, 'query');
  }
  if (body) {
    const raw = readBody(route, req);
    assertSafeInput(raw, 'body');
    input.body = parseOrThrow(body, raw, 'body');
  }
  return Object.assign(input, route.context ? route.context(req) : PUBLIC_CONTEXT);
}

export interface MountOptions {
  /** The app's auth schemes, by the names its routes' `auth` give. */
  auth?: Record<string, AuthScheme>;
  /** Body parsers for a route that takes a body (given its own limit, if any), run after `before` (so auth comes first). */
  bodyParsers?: (limit?: string) => RequestHandler[];
  /** Runs on routes that take no body, after `before` (see discardBody). */
  noBody?: RequestHandler;
  /** Admission for the route, after `before` and before its body is read (see heavyRequestGate). */
  admit?: (route: AnyRoute) => RequestHandler | undefined;
  /** How answers are written (the app's content negotiation); JSON only when absent. */
  format?: ReplyFormat;
}

/** A body's Content-Type, as Express's `res.type(…).send(text)` writes it. */
const CONTENT_TYPES: Record<MediaKind, string> = { json: 'application/json; charset=utf-8', xml: 'application/xml; charset=utf-8' };

/** How an app writes its answers: the one place that decides the media type and the text of a body. */
export interface ReplyFormat {
  /** The media type this request's answer is written in (an Accept it cannot answer was refused before). */
  mediaOf(req: Request, route: AnyRoute): MediaKind;
  /** The text of a body in `media`; what a reply's own `text` must equal. */
  serialize(route: AnyRoute, status: number, body: unknown, media: MediaKind): string;
  /** The answer depends on Accept (`Vary: Accept` on every answer with a body). */
  negotiates?: boolean;
}

/** The format of an app that answers JSON only. */
export const jsonFormat: ReplyFormat = { mediaOf: () => 'json', serialize: (_route, _status, body) => JSON.stringify(body) };

/** Writes a reply: status, its headers, and its body (its own text, else the format's) in `media`. */
function sendReply(res: Response, route: AnyRoute, reply: AnyReply, media: MediaKind, format: ReplyFormat): void {
  res.status(reply.status);
  if (reply.headers) res.set(reply.headers);
  if (reply.body === undefined) {
    res.end();
    return;
  }
  // vary() parses the Vary header already set; usually there is none
  if (format.negotiates) res.setHeader('Vary', res.hasHeader('Vary') ? `${res.getHeader('Vary')}, Accept` : 'Accept');
  const text = reply.text ?? format.serialize(route, reply.status, reply.body, media);
  // The text goes out as it is, in one write with the headers. Express's send() would first copy a
  // text of 1,000 characters or more into a Buffer, whose memory outside the heap stays until a
  // collection frees its object, and parse the Content-Type again to set its charset. No route
  // sets an ETag or Last-Modified, so there is no conditional answer (304) to make. To a HEAD
  // request Node itself sends no body.
  res.setHeader('Content-Type', CONTENT_TYPES[media]);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/**
 * Mounts a route table: `auth → before → parse body → validate → handler → render` per route, then
 * 405 for other methods. In tests every answer is checked against the route's declarations first.
 */
export function mountRoutes(router: Router, routes: AnyRoute[], options: MountOptions = {}): void {
  const methodsByPath = new Map<string, Set<string>>();
  const check = checkingResponses();
  const format = options.format ?? jsonFormat;
  for (const route of resolveAuth(routes, options.auth)) {
    const handler: RequestHandler = async (req, res) => {
      // answered already by the request deadline while it waited (authentication, admission, its body): its work is not begun
      if (res.headersSent) return;
      const media = format.mediaOf(req, route);
      const reply = await route.handler(validateInput(route, req, media));
      if (check) checkReply(route, reply, (body) => format.serialize(route, reply.status, body, media));
      // answered already by the request deadline: the late answer is dropped
      if (!res.headersSent) sendReply(res, route, reply, media, format);
    };
    const parsers = route.request?.body ? (options.bodyParsers?.(route.request.bodyLimit) ?? []) : options.noBody ? [options.noBody] : [];
    const admit = options.admit?.(route);
    router[route.method](route.path, ...(route.before ?? []), ...(admit ? [admit] : []), ...parsers, handler);
    const methods = methodsByPath.get(route.path) ?? new Set<string>();
    methods.add(route.method.toUpperCase());
    if (route.method === 'get') methods.add('HEAD');
    methodsByPath.set(route.path, methods);
  }
  for (const [path, methods] of methodsByPath) {
    const allow = [...methods, 'OPTIONS'].join(', ');
    router.all(path, (req, res, next) => {
      res.setHeader('Allow', allow);
      if (req.method === 'OPTIONS') {
        res.status(204).end();
        return;
      }
      next(new HttpError(405, 'method_not_allowed', `${req.method} is not allowed on ${req.path}; allowed: ${allow}`));
    });
  }
}

/** A reply's `Link` header (RFC 8288), as Express's `res.links` writes it: `<url>; rel="next"`. */
export const linkHeader = (links: Record<string, string>): ReplyHeaders => ({
  Link: Object.entries(links)
    .map(([rel, url]) => `<${url}>; rel="${rel}"`)
    .join(', '),
});
