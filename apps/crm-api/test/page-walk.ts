import type { Model } from 'mongoose';
import { MAX_PROPERTIES, PROPERTY_TEXT_MAX, TAG_LENGTH_MAX, TAG_MAX, WIDGET_PROPERTIES_MAX } from '../src/contacts/contact-rules';
import { CUSTOM_NAME_MAX, CUSTOM_TEXT_MAX, DEAL_DESCRIPTION_MAX, DEAL_NAME_MAX, MAX_CUSTOM_DATA } from '../src/deals/deal.schemas';
import { CURSOR_BYTES, PAGE_BUDGET_BYTES } from '../src/http/page-budget';
import { PAGE_SIZE_MAX } from '../src/paging';
import type { setupCrmApp, TestUser } from './setup-app';

/**
 * Records at their stored bounds and the walk through a list's pages that page-budget.spec.ts and
 * page-budget-lists.spec.ts share. Records are built in the costliest characters (`€` is 3 bytes in
 * JSON and XML, `&` 5 in XML): one through the API (the stored limits accept it), the rest copies of
 * its stored document (creating hundreds at these sizes through the API would take minutes).
 */
export type Kind = 'json' | 'xml';
export const ACCEPT: Record<Kind, string> = { json: 'application/json', xml: 'application/xml' };
export const NOW = Math.floor(Date.now() / 1000);

/** A contact at its bounds in `fill`: 50 properties sharing the property text, 100 tags, widget_properties. */
export function worstContact(fill: string, firstName = 'Pat', extra: object = {}) {
  const names = Array.from({ length: MAX_PROPERTIES - 1 }, (_, p) => `p${p}`);
  const room = PROPERTY_TEXT_MAX - 'first_name'.length - firstName.length - names.join('').length;
  const each = Math.floor(room / names.length);
  return {
    properties: [
      { type: 'SYSTEM', name: 'first_name', value: firstName },
      ...names.map((name, i) => ({ type: 'CUSTOM', name, value: fill.repeat(each + (i < room % names.length ? 1 : 0)) })),
    ],
    tags: ['VIP', ...Array.from({ length: TAG_MAX - 1 }, (_, t) => `T${t}`.padEnd(TAG_LENGTH_MAX, 'x'))],
    widget_properties: fill.repeat(WIDGET_PROPERTIES_MAX),
    ...extra,
  };
}

/** A deal's own fields at their bounds in `fill`. */
export function worstDealFields(fill: string) {
  const value = Math.floor((CUSTOM_TEXT_MAX - MAX_CUSTOM_DATA * CUSTOM_NAME_MAX) / MAX_CUSTOM_DATA);
  return {
    name: fill.repeat(DEAL_NAME_MAX),
    description: fill.repeat(DEAL_DESCRIPTION_MAX),
    custom_data: Array.from({ length: MAX_CUSTOM_DATA }, (_, i) => ({ name: `${i}`.padEnd(CUSTOM_NAME_MAX, fill), value: fill.repeat(value) })),
  };
}

export interface ListCall {
  label: string;
  method: 'get' | 'post';
  path: string;
  /** Form fields of a POST list (page_size and cursor go with them). */
  form?: Record<string, string>;
  /** The XML element of one item. */
  item: string;
}

export interface SeenPage {
  status: number;
  bytes: number;
  ids: number[];
  count?: number;
  cursor?: string;
}

/** Creating records and walking lists as `user()`, on the suite's app. */
export function pageWalk(ctx: ReturnType<typeof setupCrmApp>, user: () => TestUser) {
  let copied = 0;
  async function created(path: string, body: object): Promise<number> {
    const res = await ctx.as(user()).post(path).send(body);
    expect([path, res.status]).toEqual([path, 200]);
    return res.body.id;
  }

  /**
   * `count` records in all: the stored record `id` and copies of it, each a second later than the
   * one before (`field`, and created_time). The ids of them all, in that order.
   */
  async function copies(model: Model<never>, id: number, count: number, field = 'created_time'): Promise<number[]> {
    const original = (await model.findById(id).lean()) as unknown as Record<string, number>;
    const docs = Array.from({ length: count - 1 }, (_, i) => ({
      ...original,
      // small ids: the service's own are time-ordered (about 10^14 and up), so these never meet them
      _id: ++copied,
      created_time: original.created_time + i + 1,
      [field]: original[field] + i + 1,
    }));
    for (let i = 0; i < docs.length; i += 50) await model.insertMany(docs.slice(i, i + 50) as never[]);
    return [id, ...docs.map((d) => d._id)];
  }

  async function fetchPage(list: ListCall, kind: Kind, pageSize: number | string, cursor?: string): Promise<SeenPage> {
    const paging = { page_size: String(pageSize), ...(cursor && { cursor }) };
    const call =
      list.method === 'get'
        ? ctx.as(user()).get(`${list.path}${list.path.includes('?') ? '&' : '?'}${new URLSearchParams(paging)}`)
        : ctx.as(user()).post(list.path).type('form').send({ ...list.form, ...paging });
    const res = await call.set('Accept', ACCEPT[kind]).buffer(true).parse((r, done) => {
      const chunks: Buffer[] = [];
      r.on('data', (chunk: Buffer) => chunks.push(chunk));
      r.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
    });
    const text = res.body as string;
    if (res.status !== 200) return { status: res.status, bytes: Buffer.byteLength(text), ids: [] };
    if (kind === 'json') {
      const items = JSON.parse(text) as Array<{ id: number; count?: number; cursor?: string }>;
      return { status: 200, bytes: Buffer.byteLength(text), ids: items.map((i) => i.id), count: items[0]?.count, cursor: items.at(-1)?.cursor };
    }
    const ids = [...text.matchAll(new RegExp(`<${list.item}><id>(\\d+)</id>`, 'g'))].map((m) => Number(m[1]));
    const count = /<count>(\d+)<\/count>/.exec(text)?.[1];
    return { status: 200, bytes: Buffer.byteLength(text), ids, count: count === undefined ? undefined : Number(count), cursor: /<cursor>([^<]+)<\/cursor>/.exec(text)?.[1] };
  }

  /**
   * Follows a list's cursors at page_size PAGE_SIZE_MAX: every page within the budget, `count` on its
   * first item, the cursor on its last while more follow; a page that is not the last ended at the
   * budget (the next item would not have fitted). Answers the pages' sizes.
   */
  async function walk(list: ListCall, kind: Kind, expected: number[]): Promise<number[]> {
    const seen: number[] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await fetchPage(list, kind, PAGE_SIZE_MAX, cursor);
      const where = `${list.label} ${kind}, page ${sizes.length + 1}`;
      expect([where, page.status]).toEqual([where, 200]);
      expect([where, page.bytes <= PAGE_BUDGET_BYTES]).toEqual([where, true]);
      expect([where, page.count]).toEqual([where, expected.length]);
      expect(page.ids.length).toBeGreaterThan(0);
      seen.push(...page.ids);
      sizes.push(page.ids.length);
      cursor = page.cursor;
      if (cursor) {
        // ended by the budget: fewer than asked, and the next item would not have fitted. Its size is
        // that of the page of it alone (the item, its cursor and the list's frame: a little more than
        // the item); a page's average alone is too small when a small record leads it (C1's company)
        expect([where, page.ids.length < PAGE_SIZE_MAX]).toEqual([where, true]);
        const next = await fetchPage(list, kind, 1, cursor);
        expect([where, next.ids.length]).toEqual([where, 1]);
        expect([where, page.bytes + Math.max(page.bytes / page.ids.length, next.bytes) > PAGE_BUDGET_BYTES - CURSOR_BYTES]).toEqual([where, true]);
      }
      if (sizes.length > expected.length) throw new Error(`${list.label}: paging does not end`);
    } while (cursor);
    expect([list.label, kind, seen]).toEqual([list.label, kind, expected]);
    return sizes;
  }

  /** What page_size every list refuses (walk asks for PAGE_SIZE_MAX): more, or none, is a 400 naming it. */
  async function expectPageSizesRefused(list: ListCall) {
    for (const bad of [PAGE_SIZE_MAX + 1, 1000, 0]) {
      const res =
        list.method === 'get'
          ? await ctx.as(user()).get(`${list.path}${list.path.includes('?') ? '&' : '?'}page_size=${bad}`)
          : await ctx.as(user()).post(list.path).type('form').send({ ...list.form, page_size: String(bad) });
      const message = bad > PAGE_SIZE_MAX ? expect.stringContaining(String(PAGE_SIZE_MAX)) : expect.any(String);
      expect([list.label, bad, res.status, res.body.error?.fields]).toEqual([list.label, bad, 400, [{ field: 'page_size', message }]]);
    }
  }

  return { created, copies, fetchPage, walk, expectPageSizesRefused };
}
