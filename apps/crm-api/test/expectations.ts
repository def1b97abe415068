import { storedDocuments } from '@lib/testing';
import type { Connection } from 'mongoose';
import type { Response } from 'supertest';

/** The CRM error body, exactly; `fields` lists the fields named (in order) when the error names any. */
export function expectError(res: Response, status: number, code: string, fields?: string[]) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body).toEqual({
    error: {
      status,
      code,
      message: expect.any(String),
      ...(fields && { fields: fields.map((field) => ({ field, message: expect.any(String) })) }),
    },
  });
  // validation messages name each field; other codes carry their own message
  if (code === 'validation_failed') for (const field of fields ?? []) expect(res.body.error.message).toContain(field);
}

/** A CRM error body with this status (and code, when given), whatever fields it names. */
export function expectRefused(res: { status: number; body: unknown }, status: number, code?: string) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ error: expect.objectContaining({ status, code: code ?? expect.any(String), message: expect.any(String) }) });
}

/**
 * Everything stored (but the id counters, and users' `logged_in_time`, which signing in refreshes):
 * compared before and after a refused request to prove it wrote nothing.
 */
export const storedState = (connection: Connection) => storedDocuments(connection, { ignoreFields: ['logged_in_time'] });
