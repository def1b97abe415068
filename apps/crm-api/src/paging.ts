import { keysetPager, markFirstAndLast, sortKeysOf, type CountedPage, type PageSource, type SortKey } from '@lib/paging';
import { queryEnum, queryInt, z } from '@lib/validation';

export const DEFAULT_PAGE_SIZE = 20;

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
/**
 * `global_sort_key` of the contact, company and deal lists, as the original documents it: a field,
 * `-` in front for descending. Each has an index per list (see the models).
 */
export const SORT_KEYS = ['created_time', '-created_time', 'updated_time', '-updated_time'] as const;
export type SortKeyName = (typeof SORT_KEYS)[number];
export const sortParam = queryEnum(SORT_KEYS).optional().meta({
  description: 'Order of the list: created_time or updated_time, `-` in front for newest first (default created_time). A cursor keeps the order it was issued for.',
});

/** The keyset order of a `global_sort_key` (creation order when none is sent). */
export const orderOf = (key: SortKeyName | undefined): SortKey[] => (key ? sortKeysOf(key) : BY_CREATION);

/** `page_size`, `cursor` and, on lists that take it, `global_sort_key`. */
export interface SortedPageParams {
  page_size: number;
  cursor?: string;
  global_sort_key?: SortKeyName;
}

/** A CRM page: every list shows `count` (all records matching the filter) on its first item. */
export type Page<T> = CountedPage<T>;

/**
 * The CRM lists on the one keyset pager (`@lib/paging`), in any order of numeric fields ending with
 * `_id` (creation order unless told), always counted, the cursor bound to `scope` (the list, its
 * account and filter) and its order. An empty `cursor` is the first page. With `orderFromCursor`,
 * a cursor's own order wins over the default (a client that sent `global_sort_key` on the first
 * page only keeps its order); an order the request names explicitly must be the cursor's (400
 * otherwise).
 */
export function crmPager(secret: string) {
  const pager = keysetPager(secret);

  const page = <T extends { _id: number }>(
    from: PageSource<T>,
    filter: Record<string, unknown>,
    params: { page_size: number; cursor?: string },
    scope: string,
    requested: SortKey[] = BY_CREATION,
    orderFromCursor = false,
  ): Promise<Page<T>> =>
    pager.page(
      { size: params.page_size, cursor: params.cursor || undefined },
      { from, filter, scope, order: requested, orderFromCursor, orderParam: 'global_sort_key', count: true },
    );

  return {
    page,

    /** A list that takes `global_sort_key`: the sent key, else the cursor's order, else creation order. */
    sorted<T extends { _id: number }>(
      from: PageSource<T>,
      filter: Record<string, unknown>,
      params: SortedPageParams,
      scope: string,
    ): Promise<Page<T>> {
      return page(from, filter, params, scope, orderOf(params.global_sort_key), params.global_sort_key === undefined);
    },
  };
}

export type CrmPager = ReturnType<typeof crmPager>;

/** Convention 6 on the wire: `count` on the first item, `cursor` on the last when more follow. */
export const shapePage = <V extends object>(views: V[], page: Page<unknown>) => markFirstAndLast(views, page.count, page.next);
