import { databaseUnavailable, errorHandler, notFoundHandler, type ErrorBodyFormat, type ErrorSender } from '@lib/errors';
import { buildOpenApi, defineRoute, jsonFormat, mergedResponses, mountRoutes, PUBLIC, resolveAuth, type AnyRoute, type AuthScheme, type OpenApiOptions, type RouteResponse } from '@lib/routing';
import { z } from '@lib/validation';
import { DATABASE_TIME_LIMITS } from '@lib/mongo';
import { METRICS_PATH } from '@lib/services';
import express, { type Express, type RequestHandler } from 'express';
import { apiDocs, DOCS_PATH } from './api-docs';
import { bodyParsers, discardBody } from './body-parsers';
import { changesState, CROSS_SITE_DESCRIPTION, refuseCrossSite } from './cross-site';
import { healthRoutes } from './health';
import { DEFAULT_GATE, hasHeavyBody, heavyRequestGate, type GateOptions } from './heavy-request-gate';
import type { Lifecycle } from './lifecycle';
import { httpLogger, type Logger } from './logger';
import { metricsHandler } from './metrics';
import { jsonOrXmlFormat, negotiatedRoutes } from './negotiate';
import { requestDeadline } from './request-deadline';
import { securityHeaders } from './security-headers';
import { trustProxies } from './trust-proxy';

export interface ServiceAppOptions {
  logger: Logger;
  routes: AnyRoute[];
  /** The app's auth schemes, by the names its routes' `auth` give (PUBLIC needs none). */
  auth?: Record<string, AuthScheme>;
  openapi: OpenApiOptions;
  errorFormat: ErrorBodyFormat;
  errorSend?: ErrorSender;
  isReady: () => Promise<boolean>;
  lifecycle: Lifecycle;
  bodyLimit?: string;
  /** Headers set on every response (e.g. the API version). */
  responseHeaders?: Record<string, string>;
  /** Admission of heavy requests (full pages, large bodies); DEFAULT_GATE unless given. */
  gate?: GateOptions;
  /** Answer XML too, per Accept (crm): every route reads XML bodies, and an Accept naming neither type is refused with this 406. */
  xml?: { notAcceptable: RouteResponse };
  /** Every request is answered within this (request-deadline.ts): the app's connection's `timeLimitsOf(connection).requestBoundMs`; DATABASE_TIME_LIMITS' unless given. */
  requestBoundMs?: number;
}

/** While the start-up steps have not succeeded (no database yet, indexes missing), every route but health answers 503. */
function untilStarted(lifecycle: Lifecycle): RequestHandler {
  return (_req, _res, next) => next(lifecycle.starting ? databaseUnavailable() : undefined);
}

/** Fields that make a route a paged list (in its query, or its body as the dynamic filter takes them): a full page may be megabytes, so it is gated like a route marked `heavy`. */
const PAGE_FIELDS = ['page_size', 'limit'];
const isHeavy = (route: AnyRoute) =>
  route.heavy === true ||
  [route.request?.query, route.request?.body].some((schema) => {
    const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
    return shape !== undefined && PAGE_FIELDS.some((field) => field in shape);
  });

/**
 * What every table route can answer besides its own statuses, as this skeleton serves it: 403 to a
 * browser's write from another site (state-changing routes), 413 over the body limit (routes without
 * a body too), 415 for a body type the route does not read, 503 while starting, without a database
 * or shedding heavy requests.
 */
function withServiceAnswers(route: AnyRoute, schema?: z.ZodType): AnyRoute {
  const answers: Record<number, RouteResponse> = {};
  const own403 = route.responses[403];
  if (changesState(route)) answers[403] = own403 ? { ...own403, description: `${own403.description}; or: ${CROSS_SITE_DESCRIPTION}` } : { description: CROSS_SITE_DESCRIPTION, schema };
  answers[413] = { description: 'The body is over the limit', schema };
  if (route.request?.body) answers[415] = { description: 'The Content-Type is not one this route reads', schema };
  answers[503] = { description: 'Starting, the database does not answer, or busy with large requests: try again after Retry-After', schema };
  return { ...route, responses: mergedResponses(route.responses, answers, pick(route.responses, [413, 415, 503])) };
}

const pick = (responses: Record<number, RouteResponse>, statuses: number[]) =>
  Object.fromEntries(statuses.filter((status) => responses[status]).map((status) => [status, responses[status]]));

/** A state-changing route refuses a browser's request from another site first, before its auth (refuseCrossSite). */
const refusingCrossSite = (route: AnyRoute): AnyRoute => (changesState(route) ? { ...route, before: [refuseCrossSite, ...(route.before ?? [])] } : route);

const routeTables = new WeakMap<Express, AnyRoute[]>();
const bodyLimits = new WeakMap<Express, number>();

export const DEFAULT_BODY_LIMIT = '100kb';

/** `'512kb'`, `'1mb'` or a byte count as bytes. */
export function limitBytes(limit: string | number): number {
  if (typeof limit === 'number') return limit;
  const match = /^(\d+)(b|kb|mb)$/i.exec(limit.trim());
  if (!match) throw new Error(`limitBytes: cannot read ${limit}`);
  return Number(match[1]) * { b: 1, kb: 1024, mb: 1024 * 1024 }[match[2].toLowerCase() as 'b' | 'kb' | 'mb'];
}

/** The largest request body an app built by buildServiceApp accepts, in bytes (what the sweeps send at the limit). */
export function bodyLimitOf(app: Express): number {
  const limit = bodyLimits.get(app);
  if (limit === undefined) throw new Error('bodyLimitOf: the app was not built by buildServiceApp');
  return limit;
}

/**
 * Every route an app built by buildServiceApp serves (health, `/openapi.json` and its table), as
 * mounted: what the hostile-input and security sweeps are generated from.
 */
export function routeTable(app: Express): AnyRoute[] {
  const routes = routeTables.get(app);
  if (!routes) throw new Error('routeTable: the app was not built by buildServiceApp');
  return routes;
}

/**
 * The shape every service shares: security headers, request log and metrics, an answer to every
 * request within the request bound (request-deadline.ts), health, `/metrics`,
 * body parsers, cross-site writes refused (cross-site.ts), the route table, `/openapi.json` generated from it, the `/docs` page reading it,
 * 404 for unknown paths and the one error middleware.
 */
export function buildServiceApp(options: ServiceAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  // No ETag: Express would hash every answer's body (SHA-1) and send it as a second buffer to offer
  // 304s that no client of these APIs asks for (the answers are per-user and not cached).
  app.set('etag', false);
  trustProxies(app); // nobody until runService applies TRUST_PROXY
  app.use(securityHeaders(options.responseHeaders));
  app.use(httpLogger(options.logger));
  const errors = errorHandler({ format: options.errorFormat, send: options.errorSend });
  app.use(requestDeadline(options.requestBoundMs ?? DATABASE_TIME_LIMITS.requestBoundMs, (err, req, res) => errors(err, req, res, () => undefined)));
  app.use(DOCS_PATH, apiDocs(options.openapi.title));

  const health = healthRoutes(options.isReady, options.lifecycle);
  let document: unknown;
  const openapiRoute = defineRoute({
    method: 'get',
    path: '/openapi.json',
    auth: PUBLIC,
    summary: 'This OpenAPI description',
    tags: ['meta'],
    responses: { 200: { description: 'OpenAPI 3.1 document', schema: z.record(z.string(), z.unknown()) } },
    handler: () => {
      document ??= buildOpenApi([...health, openapiRoute, ...routes], options.openapi);
      return { status: 200, body: document as Record<string, unknown> };
    },
  });
  const table = options.xml ? negotiatedRoutes(options.routes, options.xml.notAcceptable) : options.routes;
  const routes = resolveAuth(table, options.auth).map((route) => refusingCrossSite(withServiceAnswers(route, options.openapi.errorSchema)));

  const router = express.Router({ caseSensitive: true, strict: false });
  mountRoutes(router, [...health, openapiRoute]);
  // not an API operation (not in the route table or OpenAPI): an internal path like the probes
  router.get(METRICS_PATH, metricsHandler());
  router.use(untilStarted(options.lifecycle));
  const gate = heavyRequestGate(options.gate ?? DEFAULT_GATE);
  const appLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const parsersByLimit = new Map<string, ReturnType<typeof bodyParsers>>();
  const parsersFor = (limit = appLimit) => {
    if (limitBytes(limit) > limitBytes(appLimit)) throw new Error(`a route's body limit (${limit}) exceeds the app's (${appLimit})`);
    const parsers = parsersByLimit.get(limit) ?? bodyParsers({ limit });
    parsersByLimit.set(limit, parsers);
    return parsers;
  };
  mountRoutes(router, routes, {
    format: options.xml ? jsonOrXmlFormat : jsonFormat,
    bodyParsers: parsersFor,
    noBody: discardBody({ limit: appLimit }),
    admit: (route) => gate.admit(isHeavy(route) ? () => true : hasHeavyBody),
  });
  app.use(router);
  routeTables.set(app, resolveAuth([...health, openapiRoute, ...routes]));
  bodyLimits.set(app, limitBytes(options.bodyLimit ?? DEFAULT_BODY_LIMIT));

  app.use(notFoundHandler);
  app.use(errors);
  return app;
}
