import { HttpError } from '@lib/errors';
import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler, Response, Router } from 'express';
import type { z } from 'zod';
import { checkingResponses, checkResponses } from './response-check';
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

/** What a handler gets: the validated input, the caller its auth scheme signed in (undefined on public routes), and the request. */
export interface RouteContext<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType, U = unknown> {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  user: U;
  req: Request;
}

/** The auth of a route that anyone may call (OpenAPI `security: []`). */
export const PUBLIC = 'public';

/**
 * One way an app lets callers in, named in its routes' `auth`: the middleware that checks the
 * caller, the OpenAPI security requirement it stands for (alternatives; an array inside is one
 * requirement naming several schemes that must all be sent), and how the handler reads the caller.
 */
export interface AuthScheme<U = unknown> {
  before: RequestHandler[];
  security: Array<string | string[]>;
  user?: (req: Request) => U;
  /** Answers the scheme gives (401, 429), documented on each of its routes unless the route describes them itself. */
  responses?: Record<number, RouteResponse>;
}

/**
 * One row of an app's route table: everything needed to serve the route, validate its input and
 * describe it in OpenAPI. Routers are built from these tables and nothing else.
 */
export interface Route<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType, U = unknown> {
  method: HttpMethod;
  path: string;
  summary: string;
  description?: string;
  tags?: string[];
  /** OpenAPI operationId; derived from the method and path when absent. */
  operationId?: string;
  /** Who may call: PUBLIC or the name of one of the app's auth schemes (its middleware, its OpenAPI security, its user). */
  auth: string;
  /** Admitted through the heavy-request gate like a paged list: its answer may be megabytes. */
  heavy?: boolean;
  /** Middleware that runs after the auth scheme's and before validation (rate limits, body parsing for auth). */
  before?: RequestHandler[];
  /** `bodyLimit`: the largest body this route takes (e.g. '64kb'), when smaller than the app's. */
  request?: { params?: P; query?: Q; body?: B; bodyTypes?: BodyType[]; bodyLimit?: string };
  responses: Record<number, RouteResponse>;
  handler(ctx: RouteContext<P, Q, B, U>, res: Response): unknown;
}

/** A route whose auth was resolved against the app's schemes (resolveAuth): what is mounted and documented. */
export interface AnyRoute extends Route {
  /** Filled by resolveAuth from the route's auth scheme; [] on public routes. */
  security?: AuthScheme['security'];
  user?: (req: Request) => unknown;
}

type UserOf<Users, A> = A extends keyof Users ? Users[A] : undefined;

/**
 * The `defineRoute` of an app whose auth schemes sign in the users of `Users` (scheme name → the
 * type of `ctx.user` on its routes); `auth: PUBLIC` gives an undefined user.
 */
export function routeDefiner<Users extends Record<string, unknown>>() {
  return <P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType, A extends Extract<keyof Users, string> | typeof PUBLIC = typeof PUBLIC>(
    route: Route<P, Q, B, UserOf<Users, A>> & { auth: A },
  ): AnyRoute => route as unknown as AnyRoute;
}

/** Routes of no app's schemes: public ones (health, the OpenAPI document) or those given their `security` by hand. */
export const defineRoute = routeDefiner<Record<never, unknown>>();

/** Each route with its auth scheme's middleware first, its OpenAPI security and its user reader; an unknown scheme is an error at start. */
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
      user: scheme.user,
      responses: { ...scheme.responses, ...route.responses },
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

function validateInput(route: AnyRoute, req: Request): RouteContext {
  const { params, query, body } = route.request ?? {};
  // Express 5's req.query parses the query string again on every read: read it once
  const rawQuery: unknown = req.query;
  const input: RouteContext = { params: req.params as unknown, query: rawQuery, body: undefined as unknown, user: route.user?.(req), req };
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
  return input;
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
}

/**
 * Mounts a route table: `auth → before → parse body → validate → handler` per route, then 405 for
 * other methods.
 */
export function mountRoutes(router: Router, routes: AnyRoute[], options: MountOptions = {}): void {
  const methodsByPath = new Map<string, Set<string>>();
  const check = checkingResponses();
  for (const route of resolveAuth(routes, options.auth)) {
    const handler: RequestHandler = async (req, res) => {
      if (check) checkResponses(route, res);
      await route.handler(validateInput(route, req), res);
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
