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

const DATABASE_UNAVAILABLE = new Set([
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoPoolClearedError',
]);

function isDatabaseUnavailable(err: { name?: string; message?: string }): boolean {
  if (err.name && DATABASE_UNAVAILABLE.has(err.name)) return true;
  // mongoose with bufferCommands off, or a closed connection
  return typeof err.message === 'string' && /^(Cannot call .* before initial connection|Connection was force closed|Client must be connected)/.test(err.message);
}

/** Turns anything thrown into an HttpError; unknown errors come back as `null` (a 500). */
export function toHttpError(err: unknown): HttpError | null {
  if (err instanceof HttpError) return err;
  if (typeof err !== 'object' || err === null) return null;
  const e = err as { type?: string; status?: number; name?: string; message?: string; code?: number };
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
  if (isDatabaseUnavailable(e)) {
    return new HttpError(503, 'database_unavailable', 'The database is unavailable; try again shortly', {
      headers: { 'Retry-After': '5' },
    });
  }
  return null;
}
