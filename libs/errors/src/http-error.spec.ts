import { HttpError, badRequest, conflict, forbidden, notFound, unauthorized, validationFailed } from './http-error';
import { toHttpError } from './normalize';

describe('HttpError', () => {
  it('carries status, code, message, details and headers', () => {
    const details = [{ field: 'name', message: 'is required' }];
    const err = new HttpError(422, 'unprocessable', 'Cannot do that', { details, headers: { 'Retry-After': '3' } });
    expect(err).toBeInstanceOf(Error);
    expect(err).toBeInstanceOf(HttpError);
    expect(err.name).toBe('HttpError');
    expect(err.status).toBe(422);
    expect(err.code).toBe('unprocessable');
    expect(err.message).toBe('Cannot do that');
    expect(err.details).toEqual(details);
    expect(err.headers).toEqual({ 'Retry-After': '3' });
    expect(err.stack).toContain('Cannot do that');
  });

  it('has no details or headers unless given', () => {
    const err = new HttpError(400, 'bad_request', 'nope');
    expect(err.details).toBeUndefined();
    expect(err.headers).toBeUndefined();
  });
});

describe('error helpers', () => {
  it('badRequest is a 400 with optional details', () => {
    const err = badRequest('bad', [{ field: 'a', message: 'is wrong' }]);
    expect([err.status, err.code, err.message]).toEqual([400, 'bad_request', 'bad']);
    expect(err.details).toEqual([{ field: 'a', message: 'is wrong' }]);
  });

  it('validationFailed names every field in its message', () => {
    const err = validationFailed([
      { field: 'name', message: 'is required' },
      { field: 'type', message: 'must be PERSON or COMPANY' },
    ]);
    expect(err.status).toBe(400);
    expect(err.code).toBe('validation_failed');
    expect(err.message).toBe('name: is required; type: must be PERSON or COMPANY');
    expect(err.details).toHaveLength(2);
  });

  it('unauthorized, forbidden, notFound and conflict have their statuses and codes', () => {
    const u = unauthorized(undefined, { 'WWW-Authenticate': 'Bearer' });
    expect([u.status, u.code, u.message]).toEqual([401, 'unauthorized', 'Authentication required']);
    expect(u.headers).toEqual({ 'WWW-Authenticate': 'Bearer' });
    expect([forbidden().status, forbidden().code]).toEqual([403, 'forbidden']);
    expect([notFound('no such contact').status, notFound('no such contact').message]).toEqual([404, 'no such contact']);
    expect([conflict('taken').status, conflict('taken').code]).toEqual([409, 'conflict']);
  });
});

describe('toHttpError', () => {
  it('returns an HttpError unchanged', () => {
    const err = notFound();
    expect(toHttpError(err)).toBe(err);
  });

  it('maps body-parser error types to client errors', () => {
    const cases: Array<[string, number, string]> = [
      ['entity.parse.failed', 400, 'invalid_body'],
      ['entity.too.large', 413, 'payload_too_large'],
      ['entity.verify.failed', 400, 'invalid_body'],
      ['encoding.unsupported', 415, 'unsupported_encoding'],
      ['charset.unsupported', 415, 'unsupported_charset'],
      ['parameters.too.many', 413, 'payload_too_large'],
      ['request.aborted', 400, 'request_aborted'],
      ['request.size.invalid', 400, 'invalid_body'],
    ];
    for (const [type, status, code] of cases) {
      const mapped = toHttpError(Object.assign(new Error('raw parser text'), { type }));
      expect([type, mapped?.status, mapped?.code]).toEqual([type, status, code]);
      expect(mapped?.message).not.toContain('raw parser text');
    }
  });

  it('treats a server-side body-parser failure as unknown (a 500)', () => {
    expect(toHttpError(Object.assign(new Error('x'), { type: 'stream.encoding.set' }))).toBeNull();
  });

  it('maps every database-unavailable error name to 503 with Retry-After', () => {
    for (const name of [
      'MongoServerSelectionError',
      'MongooseServerSelectionError',
      'MongoNetworkError',
      'MongoNetworkTimeoutError',
      'MongoNotConnectedError',
      'MongoTopologyClosedError',
      'MongoPoolClearedError',
    ]) {
      const err = Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:27017'), { name });
      const mapped = toHttpError(err);
      expect([name, mapped?.status, mapped?.code]).toEqual([name, 503, 'database_unavailable']);
      expect(mapped?.headers).toEqual({ 'Retry-After': '5' });
      expect(mapped?.message).not.toContain('ECONNREFUSED');
    }
  });

  it('maps mongoose "not connected" messages to 503', () => {
    const messages = [
      'Cannot call `contacts.find()` before initial connection is complete if `bufferCommands = false`.',
      'Connection was force closed',
      'Client must be connected before running operations',
    ];
    for (const message of messages) expect(toHttpError(new Error(message))?.status).toBe(503);
  });

  it('returns null for anything else', () => {
    expect(toHttpError(new Error('boom'))).toBeNull();
    expect(toHttpError(Object.assign(new Error('dup'), { name: 'MongoServerError', code: 11000 }))).toBeNull();
    expect(toHttpError(Object.assign(new Error('x'), { type: 'unknown.type' }))).toBeNull();
    expect(toHttpError('a string')).toBeNull();
    expect(toHttpError(undefined)).toBeNull();
    expect(toHttpError(null)).toBeNull();
    expect(toHttpError(42)).toBeNull();
  });
});
