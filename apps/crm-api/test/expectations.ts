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
 * Everything stored in the collections of the app's models (so not the id counters: a refused
 * create may use up an id), but users' `logged_in_time`, which signing in refreshes: compared
 * before and after a refused request to prove it wrote nothing.
 */
export async function storedState(connection: Connection): Promise<Record<string, unknown[]>> {
  const names = [...new Set(Object.values(connection.models).map((model) => model.collection.collectionName))].filter((name) => name !== 'counters').sort();
  const read = async (name: string) => {
    const docs = await connection.collection(name).find().sort({ _id: 1 }).toArray();
    return docs.map(({ logged_in_time: _signedIn, ...rest }) => rest);
  };
  return Object.fromEntries(await Promise.all(names.map(async (name) => [name, await read(name)] as const)));
}
