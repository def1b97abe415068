import { CursorCodec, keysetAfter, markFirstAndLast, sortOf, takePage, type SortKey } from '@lib/paging';
import { queryInt, z } from '@lib/validation';
import type { Model } from 'mongoose';

export const DEFAULT_PAGE_SIZE = 20;
/** The largest page_size any list takes; each list's own maximum is in page-budget.ts. */
export const MAX_PAGE_SIZE = 200;

const cursorParam = z
  .string()
  .max(1024)
  .optional()
  .meta({ description: 'The cursor of the last item of the previous page; absent or empty for the first page' });

/** `page_size` (default 20 or the list's maximum, whichever is smaller) and `cursor` of convention 6. */
export function pageParamsUpTo(max: number) {
  const fallback = Math.min(DEFAULT_PAGE_SIZE, max);
  return {
    page_size: queryInt({ min: 1, max, description: `Items per page (default ${fallback}, at most ${max})` }).default(fallback),
    // Empty means "no cursor" (the first page): clients often send `cursor=` with nothing yet.
    cursor: cursorParam,
  };
}

/**
 * `page_size` and `cursor` for lists the spec shows unpaged (notes, tasks and events of a
 * contact, T1–T4, E1): a whole list up to the list's maximum page by default, so clients written
 * for the unpaged original get everything they got when it fits; `cursor` on the last item when
 * more follow.
 */
export function wholeListParamsUpTo(max: number) {
  return {
    page_size: queryInt({ min: 1, max, description: `Items per page (default and at most ${max})` }).default(max),
    cursor: cursorParam,
  };
}

export const wholeListQueryUpTo = (max: number) => z.strictObject(wholeListParamsUpTo(max));

/** Creation order with the id as tie-breaker: stable while new records arrive. */
export const BY_CREATION: SortKey[] = [
  { field: 'created_time', direction: 1 },
  { field: '_id', direction: 1 },
];
const position = z.strictObject({ k: z.array(z.number()) });

export interface Page<T> {
  items: T[];
  /** All records matching the filter, for `count` on the first item. */
  count: number;
  next?: string;
}

/**
 * Keyset paging for every CRM list, in any order of numeric fields ending with `_id` (creation
 * order unless told): fetches `page_size + 1` after the cursor's position, counts the matches,
 * and signs the next cursor for exactly this list (`scope`) and order, so it cannot be replayed on
 * another list, order or account.
 */
export function crmPager(secret: string) {
  const cursors = new CursorCodec(secret);
  return {
    async page<T extends { _id: number }>(
      model: Model<T>,
      filter: Record<string, unknown>,
      params: { page_size: number; cursor?: string },
      scope: string,
      order: SortKey[] = BY_CREATION,
    ): Promise<Page<T>> {
      const fields = order.map((key) => key.field);
      const signedScope = `${scope}|${fields.join(',')}`;
      const after = params.cursor ? cursors.decode(params.cursor, position, signedScope).k : undefined;
      const query = after ? { $and: [filter, keysetAfter(order, after)] } : filter;
      const [count, fetched] = await Promise.all([
        model.countDocuments(filter),
        model.find(query).sort(sortOf(order)).limit(params.page_size + 1).lean<T[]>(),
      ]);
      const { items, hasMore } = takePage(fetched, params.page_size);
      const last = items[items.length - 1] as Record<string, unknown> | undefined;
      const next = hasMore && last ? cursors.encode({ k: fields.map((field) => Number(last[field])) }, signedScope) : undefined;
      return { items, count, next };
    },
  };
}

export type CrmPager = ReturnType<typeof crmPager>;

/** Convention 6 on the wire: `count` on the first item, `cursor` on the last when more follow. */
export const shapePage = <V extends object>(views: V[], page: Page<unknown>) => markFirstAndLast(views, page.count, page.next);
