import { createHmac } from 'node:crypto';
import { HttpError } from '@lib/errors';
// the secrets helpers alone (not the whole HTTP lib: express, the logger…)
import { sameBytes } from '@lib/http/secrets';
import type { z } from 'zod';

const SIGNATURE_BYTES = 16;
/** The longest cursor issued or accepted (what a page reserves for the cursor on its last item). */
export const MAX_CURSOR_LENGTH = 1024;

/** The 400 of a cursor that is malformed, altered or foreign (also for a checked cursor whose content does not fit its use). */
export const invalidCursor = () => new HttpError(400, 'invalid_cursor', 'cursor: is not a cursor this service issued (pass the value from the previous page unchanged)', {
  details: [{ field: 'cursor', message: 'is malformed or has been altered' }],
});

/**
 * Opaque, tamper-checked page cursors: base64url(JSON payload) + "." + base64url(HMAC). A cursor is
 * bound to a scope (the list and filter it came from) so it cannot be replayed on another list.
 */
export class CursorCodec {
  constructor(private readonly secret: string) {
    if (!secret) throw new Error('CursorCodec needs a secret');
  }

  encode(payload: Record<string, unknown>, scope = ''): string {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    const cursor = `${body}.${this.sign(body, scope).toString('base64url')}`;
    // decode refuses a longer one: issuing it would strand the client
    if (cursor.length > MAX_CURSOR_LENGTH) throw new Error(`CursorCodec: a cursor of ${cursor.length} characters is longer than ${MAX_CURSOR_LENGTH}`);
    return cursor;
  }

  /** Decodes and checks a cursor; any malformed, altered or foreign cursor is a 400. */
  decode<S extends z.ZodType>(cursor: string, schema: S, scope = ''): z.output<S> {
    if (cursor.length > MAX_CURSOR_LENGTH) throw invalidCursor();
    const [body, signature, extra] = cursor.split('.');
    if (!body || !signature || extra !== undefined) throw invalidCursor();
    const given = Buffer.from(signature, 'base64url');
    // base64url decoding ignores stray bits and characters: accept only the canonical spelling
    if (given.toString('base64url') !== signature) throw invalidCursor();
    const expected = this.sign(body, scope);
    if (!sameBytes(given, expected)) throw invalidCursor();
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw invalidCursor();
    }
    const parsed = schema.safeParse(payload);
    if (!parsed.success) throw invalidCursor();
    return parsed.data;
  }

  private sign(body: string, scope: string): Buffer {
    return createHmac('sha256', this.secret).update(scope).update('\0').update(body).digest().subarray(0, SIGNATURE_BYTES);
  }
}
