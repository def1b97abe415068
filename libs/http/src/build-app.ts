import { errorHandler, notFoundHandler, type ErrorBodyFormat, type ErrorSender } from '@lib/errors';
import { buildOpenApi, defineRoute, mountRoutes, z, type AnyRoute, type OpenApiOptions } from '@lib/validation';
import express, { type Express } from 'express';
import { bodyParsers, discardBody } from './body-parsers';
import { healthRoutes } from './health';
import type { Lifecycle } from './lifecycle';
import { httpLogger, type Logger } from './logger';
import { securityHeaders } from './security-headers';
import { trustOneProxyHop } from './trust-proxy';

export interface ServiceAppOptions {
  logger: Logger;
  routes: AnyRoute[];
  openapi: OpenApiOptions;
  errorFormat: ErrorBodyFormat;
  errorSend?: ErrorSender;
  isReady: () => Promise<boolean>;
  lifecycle: Lifecycle;
  bodyLimit?: string;
  /** Headers set on every response (e.g. the API version). */
  responseHeaders?: Record<string, string>;
}

const routeTables = new WeakMap<Express, AnyRoute[]>();

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
 * The shape every service shares: security headers, request log, health, body parsers, the route
 * table, `/openapi.json` generated from it, 404 for unknown paths and the one error middleware.
 */
export function buildServiceApp(options: ServiceAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustOneProxyHop);
  app.use(securityHeaders({}, options.responseHeaders));
  app.use(httpLogger(options.logger));

  const health = healthRoutes(options.isReady, options.lifecycle);
  let document: unknown;
  const openapiRoute = defineRoute({
    method: 'get',
    path: '/openapi.json',
    summary: 'This OpenAPI description',
    tags: ['meta'],
    responses: { 200: { description: 'OpenAPI 3.1 document', schema: z.record(z.string(), z.unknown()) } },
    handler: (_input, _req, res) => {
      document ??= buildOpenApi([...health, openapiRoute, ...options.routes], options.openapi);
      res.json(document);
    },
  });

  const router = express.Router({ caseSensitive: true, strict: false });
  mountRoutes(router, [...health, openapiRoute]);
  mountRoutes(router, options.routes, { bodyParsers: bodyParsers({ limit: options.bodyLimit }), noBody: discardBody({ limit: options.bodyLimit }) });
  app.use(router);
  routeTables.set(app, [...health, openapiRoute, ...options.routes]);

  app.use(notFoundHandler);
  app.use(errorHandler({ format: options.errorFormat, send: options.errorSend }));
  return app;
}
