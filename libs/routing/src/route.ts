import { HttpError } from '@lib/errors';
import type { Request, RequestHandler, Response, Router } from 'express';
import type { z } from 'zod';
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

export interface RouteInput<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
}

/**
 * One row of an app's route table: everything needed to serve the route, validate its input and
 * describe it in OpenAPI. Routers are built from these tables and nothing else.
 */
export interface Route<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType> {
  method: HttpMethod;
  path: string;
  summary: string;
  description?: string;
  tags?: string[];
  /** Names of OpenAPI security schemes that protect the route. */
  security?: string[];
  /** Middleware that runs before validation (authentication). */
  before?: RequestHandler[];
  /** `bodyLimit`: the largest body this route takes (e.g. '64kb'), when smaller than the app's. */
  request?: { params?: P; query?: Q; body?: B; bodyTypes?: BodyType[]; bodyLimit?: string };
  responses: Record<number, RouteResponse>;
  handler(input: RouteInput<P, Q, B>, req: Request, res: Response): unknown;
}

export type AnyRoute = Route<z.ZodType, z.ZodType, z.ZodType>;

export function defineRoute<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType>(
  route: Route<P, Q, B>,
): AnyRoute {
  return route as unknown as AnyRoute;
}

function hasBody(req: Request): boolean {
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

function validateInput(route: AnyRoute, req: Request): RouteInput<z.ZodType, z.ZodType, z.ZodType> {
  const { params, query, body } = route.request ?? {};
  // Express 5's req.query parses the query string again on every read: read it once
  const rawQuery: unknown = req.query;
  const input = { params: req.params as unknown, query: rawQuery, body: undefined as unknown };
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
  /** Body parsers for a route that takes a body (given its own limit, if any), run after `before` (so auth comes first). */
  bodyParsers?: (limit?: string) => RequestHandler[];
  /** Runs on routes that take no body, after `before` (see discardBody). */
  noBody?: RequestHandler;
  /** Admission for the route, after `before` and before its body is read (see heavyRequestGate). */
  admit?: (route: AnyRoute) => RequestHandler | undefined;
}

/** Mounts a route table: `before → parse body → validate → handler` per route, then 405 for other methods. */
export function mountRoutes(router: Router, routes: AnyRoute[], options: MountOptions = {}): void {
  const methodsByPath = new Map<string, Set<string>>();
  for (const route of routes) {
    const handler: RequestHandler = async (req, res) => {
      await route.handler(validateInput(route, req), req, res);
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
