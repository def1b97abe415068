import { createHmac } from 'node:crypto';
import { HttpError } from '@lib/errors';
import { z } from 'zod';
import { CursorCodec, MAX_CURSOR_LENGTH } from './cursor';

const SECRET = 'test-secret-for-cursors';
const codec = new CursorCodec(SECRET);
const position = z.strictObject({ name: z.string(), id: z.number().int() });

/** Asserts `fn` throws the one cursor error: a 400 naming the cursor parameter. */
function expectInvalidCursor(fn: () => unknown): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(HttpError);
  const err = caught as HttpError;
  expect(err.status).toBe(400);
  expect(err.code).toBe('invalid_cursor');
  expect(err.message).toMatch(/^cursor: /);
  expect(err.details).toEqual([{ field: 'cursor', message: 'is malformed or has been altered' }]);
}

/** Signs a body the way the codec does, to build cursors the public API cannot make. */
const signed = (body: string, scope = '', secret = SECRET) =>
  `${body}.${createHmac('sha256', secret).update(scope).update('\0').update(body).digest().subarray(0, 16).toString('base64url')}`;

describe('CursorCodec', () => {
  it('round-trips a payload', () => {
    const cursor = codec.encode({ name: 'Zoë & "co"', id: 42 });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(codec.decode(cursor, position)).toEqual({ name: 'Zoë & "co"', id: 42 });
  });

  it('round-trips within a scope', () => {
    const cursor = codec.encode({ name: 'a', id: 1 }, 'contacts?type=PERSON');
    expect(codec.decode(cursor, position, 'contacts?type=PERSON')).toEqual({ name: 'a', id: 1 });
  });

  it('is opaque: the payload is not readable as plain text', () => {
    const cursor = codec.encode({ name: 'secret-name', id: 7 });
    expect(cursor).not.toContain('secret-name');
  });

  it('returns the schema output (transforms applied)', () => {
    const schema = z.strictObject({ at: z.string().transform((s) => new Date(s)) });
    const decoded = codec.decode(codec.encode({ at: '2024-01-02T03:04:05.000Z' }), schema);
    expect(decoded.at).toBeInstanceOf(Date);
    expect(decoded.at.toISOString()).toBe('2024-01-02T03:04:05.000Z');
  });

  it('needs a secret', () => {
    expect(() => new CursorCodec('')).toThrow('secret');
  });

  it('rejects a tampered body', () => {
    const cursor = codec.encode({ name: 'a', id: 1 });
    const [, signature] = cursor.split('.');
    const forgedBody = Buffer.from(JSON.stringify({ name: 'a', id: 2 })).toString('base64url');
    expectInvalidCursor(() => codec.decode(`${forgedBody}.${signature}`, position));
    // one character changed in place
    const [body] = cursor.split('.');
    const flipped = (body[0] === 'A' ? 'B' : 'A') + body.slice(1);
    expectInvalidCursor(() => codec.decode(`${flipped}.${signature}`, position));
  });

  it('rejects a tampered signature', () => {
    const cursor = codec.encode({ name: 'a', id: 1 });
    const [body, signature] = cursor.split('.');
    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
    expectInvalidCursor(() => codec.decode(`${body}.${flipped}`, position));
    expectInvalidCursor(() => codec.decode(`${body}.${signature.slice(0, -2)}`, position));
    expectInvalidCursor(() => codec.decode(`${body}.${signature}AAAA`, position));
  });

  it('accepts only the canonical spelling of the signature', () => {
    const cursor = codec.encode({ name: 'a', id: 1 });
    const [body, signature] = cursor.split('.');
    // the last base64url character of 16 bytes carries 4 unused bits: flip one of them
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(signature[signature.length - 1]);
    const sameBytes = signature.slice(0, -1) + alphabet[last ^ 1];
    expect(Buffer.from(sameBytes, 'base64url').equals(Buffer.from(signature, 'base64url'))).toBe(true);
    expectInvalidCursor(() => codec.decode(`${body}.${sameBytes}`, position));
  });

  it('rejects a cursor from another scope', () => {
    const cursor = codec.encode({ name: 'a', id: 1 }, 'contacts');
    expectInvalidCursor(() => codec.decode(cursor, position, 'deals'));
    expectInvalidCursor(() => codec.decode(cursor, position));
  });

  it('rejects a cursor signed with another secret', () => {
    const foreign = new CursorCodec('another-secret').encode({ name: 'a', id: 1 });
    expectInvalidCursor(() => codec.decode(foreign, position));
  });

  it.each(['', '.', 'abc', 'abc.', '.abc', 'a.b', 'a.b.c', '...', 'null', '{"id":1}', '%%%.$$$', 'ü.ö', ' . '])(
    'rejects the garbage string %j',
    (garbage) => {
      expectInvalidCursor(() => codec.decode(garbage, position));
    },
  );

  it('rejects over-long strings, even when correctly signed, and never issues one', () => {
    expectInvalidCursor(() => codec.decode('A'.repeat(5000), position));
    const long = signed(Buffer.from(JSON.stringify({ name: 'x'.repeat(2000), id: 1 })).toString('base64url'));
    expectInvalidCursor(() => codec.decode(long, z.strictObject({ name: z.string(), id: z.number() })));
    expect(() => codec.encode({ name: 'x'.repeat(2000), id: 1 })).toThrow(`longer than ${MAX_CURSOR_LENGTH}`);
    expect(codec.encode({ name: 'x'.repeat(600), id: 1 }).length).toBeLessThanOrEqual(MAX_CURSOR_LENGTH);
  });

  it('rejects a correctly signed payload that fails the schema', () => {
    expectInvalidCursor(() => codec.decode(codec.encode({ name: 'a' }), position));
    expectInvalidCursor(() => codec.decode(codec.encode({ name: 'a', id: '1' }), position));
    expectInvalidCursor(() => codec.decode(codec.encode({ name: 'a', id: 1, extra: true }), position));
  });

  it('rejects a correctly signed body that is not JSON', () => {
    const body = Buffer.from('not json {').toString('base64url');
    expectInvalidCursor(() => codec.decode(signed(body), position));
    // the helper really signs like the codec: a JSON body signed this way is accepted
    const good = Buffer.from(JSON.stringify({ name: 'a', id: 1 })).toString('base64url');
    expect(codec.decode(signed(good), position)).toEqual({ name: 'a', id: 1 });
  });
});
