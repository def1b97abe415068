import pino, { type Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { requestId } from './request-id';

export type { Logger } from 'pino';

export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    name: service,
    level,
    redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]'],
  });
}

/** Tokens may travel as an `access_token` query parameter; they never reach the log. */
export const redactUrl = (url: string | undefined) => url?.replace(/([?&]access_token=)[^&]*/gi, '$1[REDACTED]');

/** One structured log line per request, tagged with the request id; 5xx are errors, 4xx warnings. */
export function httpLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: requestId,
    // Our serializers read three fields of the raw request and one of the response: pino-std-serializers'
    // wrappers would first copy every request (headers, address, port) and response into objects
    // the log never shows. Errors keep pino's standard `err` serializer.
    wrapSerializers: false,
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    serializers: {
      req: (req) => ({ id: req.id, method: req.method, url: redactUrl(req.url) }),
      res: (res) => ({ statusCode: res.statusCode }),
    },
  });
}
