import { HttpError } from './http-error';

/** Errors raised by body-parser carry a `type`; map them to client errors with a clear message. */
const BODY_PARSER_ERRORS: Record<string, [number, string, string]> = {
  'entity.parse.failed': [400, 'invalid_body', 'Malformed request body: it is not valid JSON'],
  'entity.too.large': [413, 'payload_too_large', 'Request body is larger than the limit'],
  'entity.verify.failed': [400, 'invalid_body', 'Request body failed verification'],
  'encoding.unsupported': [415, 'unsupported_encoding', 'Unsupported content encoding'],
  'charset.unsupported': [415, 'unsupported_charset', 'Unsupported charset'],
  'parameters.too.many': [413, 'payload_too_large', 'Too many form parameters'],
  'request.aborted': [400, 'request_aborted', 'Request was aborted by the client'],
  'request.size.invalid': [400, 'invalid_body', 'Request body size did not match Content-Length'],
  'stream.encoding.set': [500, 'internal_error', 'Internal server error'],
};

/**
 * Driver and mongoose errors that mean "the database cannot answer now" (gone, stalled, timed
 * out, failing over), matched by the name of the error's class or any class it extends, so that
 * every subclass (PoolClearedOnNetworkError, MongoNetworkTimeoutError, … all extend
 * MongoNetworkError) is covered without listing each.
 */
const DATABASE_UNAVAILABLE = new Set([
  'MongoNetworkError',
  // these extend MongoNetworkError; listed for errors that carry only the name
  'MongoNetworkTimeoutError',
  'MongoPoolClearedError',
  'PoolClearedOnNetworkError',
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoClientClosedError',
  'MongoServerClosedError',
  'MongoStalePrimaryError',
  'MongoPoolClosedError',
  'MongoWaitQueueTimeoutError',
  'WaitQueueTimeoutError',
  'MongoOperationTimeoutError',
]);

/**
 * Server error codes of the same kind: the operation ran out of time (MaxTimeMSExpired 50,
 * ExceededTimeLimit 262), the server is shutting down or stepping down (91, 189, 11600, 11602),
 * is not (or no longer) the primary (10107, 13435, 13436), or could not reach another member
 * (HostUnreachable 6, HostNotFound 7, NetworkTimeout 89, SocketException 9001).
 */
const DATABASE_UNAVAILABLE_CODES = new Set([50, 262, 91, 189, 11600, 11602, 10107, 13435, 13436, 6, 7, 89, 9001]);

/** The error's own name and the class names of its prototype chain. */
function classNames(err: object): string[] {
  const names: string[] = [];
  const own = (err as { name?: unknown }).name;
  if (typeof own === 'string') names.push(own);
  for (let proto = Object.getPrototypeOf(err); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    const name = (proto as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof name === 'string') names.push(name);
  }
  return names;
}

function isDatabaseUnavailable(err: object, depth = 0): boolean {
  if (classNames(err).some((name) => DATABASE_UNAVAILABLE.has(name))) return true;
  const { code, message, cause, errorResponse } = err as { code?: unknown; message?: unknown; cause?: unknown; errorResponse?: unknown };
  if (typeof code === 'number' && DATABASE_UNAVAILABLE_CODES.has(code) && classNames(err).some((name) => name.startsWith('Mongo'))) return true;
  // mongoose with bufferCommands off, or a closed connection
  if (typeof message === 'string' && /^(Cannot call .* before initial connection|Connection was force closed|Client must be connected)/.test(message)) return true;
  // an error wrapping one of the above (mongoose and the driver both set `cause`; the driver's
  // MongoBulkWriteError, which insertMany throws, holds a pool or network error as `errorResponse`)
  return depth < 3 && [cause, errorResponse].some((inner) => typeof inner === 'object' && inner !== null && isDatabaseUnavailable(inner, depth + 1));
}

/** The 503 of every request the database cannot serve now (gone, stalled, timed out, not yet reached at start). */
export function databaseUnavailable(): HttpError {
  return new HttpError(503, 'database_unavailable', 'The database is unavailable; try again shortly', { headers: { 'Retry-After': '5' } });
}

/** Turns anything thrown into an HttpError; unknown errors come back as `null` (a 500). */
export function toHttpError(err: unknown): HttpError | null {
  if (err instanceof HttpError) return err;
  if (typeof err !== 'object' || err === null) return null;
  const e = err as { type?: string; status?: number; message?: string };
  if (typeof e.type === 'string' && e.type in BODY_PARSER_ERRORS) {
    const [status, code, message] = BODY_PARSER_ERRORS[e.type];
    return status >= 500 ? null : new HttpError(status, code, message);
  }
  // the router's URIError for a path like /contacts/%zz carries status 400
  if (err instanceof URIError) return new HttpError(400, 'bad_request', 'Malformed percent-encoding in the request path');
  // other 4xx from express and its parsers (http-errors): the status is right, the message is safe to show when `expose` says so
  const expose = (err as { expose?: boolean }).expose === true;
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    return new HttpError(e.status, 'bad_request', expose && e.message ? e.message : 'The request could not be read');
  }
  if (isDatabaseUnavailable(err)) return databaseUnavailable();
  return null;
}
