import type { Response } from 'supertest';
import { create as parseXml } from 'xmlbuilder2';
import { person, type setupCrmApp, type TestUser } from './setup-app';

type Ctx = ReturnType<typeof setupCrmApp>;


export function expectEmpty204(res: Response) {
  expect(res.status).toBe(204);
  expect(res.text).toBe('');
}

/**
 * DELETE `${base}/{id}` by `user` of their own record, another account's record and an unknown id:
 * each answers an empty 204, and only the other account's record is still stored.
 */
export async function expectDeleteScopedToAccount(ctx: Ctx, user: TestUser, base: string, records: { mine: { id: number }; theirs: { id: number } }, storedIds: () => Promise<unknown[]>) {
  expectEmpty204(await ctx.as(user).delete(`${base}/${records.mine.id}`));
  expectEmpty204(await ctx.as(user).delete(`${base}/${records.theirs.id}`));
  expectEmpty204(await ctx.as(user).delete(`${base}/999999`));
  expect(await storedIds()).toEqual([records.theirs.id]);
}

/** A person of `user`'s account, as C3 returned it. */
export async function createContact(ctx: Ctx, user: TestUser, firstName: string, email?: string) {
  const res = await ctx.as(user).post('/dev/api/contacts').send(person(firstName, email));
  expect(res.status).toBe(200);
  return res.body as { id: number } & Record<string, unknown>;
}

/** The contact exactly as C2 returns it (what task and event responses embed). */
export async function fetchContact(ctx: Ctx, user: TestUser, id: number) {
  const res = await ctx.as(user).get(`/dev/api/contacts/${id}`);
  expect(res.status).toBe(200);
  return res.body as Record<string, unknown>;
}

/** An XML response as a plain object (repeated elements become arrays). */
export function xmlOf(res: Response): Record<string, unknown> {
  expect(res.headers['content-type']).toMatch(/^application\/xml/);
  return parseXml(res.text).end({ format: 'object' }) as unknown as Record<string, unknown>;
}

/** Follows the cursors of a list through every page; returns the ids page by page. */
export async function allPages(ctx: Ctx, user: TestUser, path: string, pageSize: number) {
  const pages: number[][] = [];
  let cursor: string | undefined;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res = await ctx.as(user).get(`${path}${sep}page_size=${pageSize}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    const items = res.body as Array<{ id: number; cursor?: string }>;
    pages.push(items.map((item) => item.id));
    cursor = items[items.length - 1]?.cursor;
    if (pages.length > 50) throw new Error('allPages: too many pages');
  } while (cursor);
  return pages;
}
