import { performance } from 'node:perf_hooks';
import type { ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import pino, { type Logger } from 'pino';
import { logDestination } from './log-destination';
import { requestId } from './request-id';
import { observeRequest } from './request-metrics';
import { TRACE_ID } from './trace-id';

export type { Logger } from 'pino';

export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino(
    {
      name: service,
      level,
      // pid and hostname on every line say nothing in a container (the collector adds the pod)
      base: undefined,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]'],
    },
    logDestination(),
  );
}

/** Tokens may travel as an `access_token` query parameter, API keys as `apiKey` (news-api, as NewsAPI takes them); they never reach the log. */
export const redactUrl = (url: string | undefined) => url?.replace(/([?&](?:access_token|apiKey)=)[^&]*/gi, '$1[REDACTED]');

/** Of a path no route matched, this much is logged. */
const UNMATCHED_URL_MAX = 200;

const started = Symbol('requestStarted');

interface Timed {
  [started]: number;
  /** `user`: as the auth middlewares leave it, crm's domain user (with its account) or news' user. */
  req: Request & { id?: string; log: Logger; user?: { _id?: unknown; account?: unknown }; [TRACE_ID]?: string };
}

// One shared listener, `this` being the response: no closure per request.
function logLine(this: ServerResponse & Timed) {
  const { req } = this;
  const status = this.statusCode;
  const ms = performance.now() - this[started];
  const route = req.route?.path as string | undefined;
  observeRequest(req.method, route, status, ms / 1000);
  const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
  const logger = req.log;
  if (!logger.isLevelEnabled(level)) return;
  const line: Record<string, unknown> = { id: req.id, method: req.method };
  if (route === undefined) line.url = redactUrl(req.originalUrl)?.slice(0, UNMATCHED_URL_MAX);
  else line.route = route;
  line.status = status;
  line.ms = Math.round(ms * 10) / 10;
  if (!this.writableFinished) line.aborted = true;
  const user = req.user;
  if (user?.account !== undefined) line.account = user.account;
  if (user?._id !== undefined) line.user = user._id;
  const trace = req[TRACE_ID];
  if (trace !== undefined) line.trace = trace;
  logger[level](line);
}

/**
 * One compact line per request when its response is done (or the client went away): request id,
 * method, route template (the URL, shortened and with tokens redacted, when no route matched),
 * status, duration in ms, the signed-in account/user and, with tracing on, the trace id. 5xx are
 * errors, 4xx warnings. Counts the request in the request metrics (./request-metrics). Sets
 * `req.id` (echoed as X-Request-Id) and `req.log` (for the error middleware).
 */
export function httpLogger(logger: Logger): RequestHandler {
  return (req, res, next) => {
    // the fewest properties added to req and res: each one added allocates (a request's own log
    // line finds its logger as req.log, which the error middleware reads too)
    (res as unknown as Timed)[started] = performance.now();
    (req as Timed['req']).id = requestId(req, res);
    (req as Timed['req']).log = logger;
    // 'close' comes once per response, after 'finish' or when the client went away
    res.on('close', logLine);
    next();
  };
}
