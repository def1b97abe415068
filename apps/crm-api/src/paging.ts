import { keysetPager, sortKeysOf, type CountedPageReader, type PageReader, type PageSource, type SortKey } from '@lib/paging';
import { queryEnum, queryInt, z } from '@lib/validation';
import { PAGE_BUDGET_BYTES } from './http/page-budget';

/** Default items per page of the contact lists (convention 6). */
export const DEFAULT_PAGE_SIZE = 20;
/**
 * The most items a page holds, on every list: what clients of the original ask for (20 to 200). A
 * page ends earlier when its answer reaches the byte budget (see http/page-budget.ts).
 */
export const PAGE_SIZE_MAX = 200;

const BUDGET_MIB = PAGE_BUDGET_BYTES / (1024 * 1024);
/** The rule every `page_size` states: a maximum, not a promise. */
export const PAGE_SIZE_RULE =
  `A maximum: a page holds fewer items when its answer (JSON or XML) would otherwise pass ${BUDGET_MIB} MiB, ` +
  'and the cursor on its last item continues right after it';

const cursorParam = z
  .string()
  .max(1024)
  .optional()
  .meta({ description: 'The cursor of the last item of the previous page; absent or empty for the first page' });

/** `page_size` (default `fallback`, at most PAGE_SIZE_MAX) and `cursor` of convention 6. */
export function pageParams(fallback: number) {
  return {
    page_size: queryInt({ min: 1, max: PAGE_SIZE_MAX, description: `Items per page (default ${fallback}, at most ${PAGE_SIZE_MAX}). ${PAGE_SIZE_RULE}` }).default(fallback),
    // Empty means "no cursor" (the first page): clients often send `cursor=` with nothing yet.
    cursor: cursorParam,
  };
}

/**
 * `page_size` and `cursor` for lists the spec shows unpaged (notes, tasks, events and deals of a
 * contact, T1–T4, E1, D12): the whole list by default when it fits one page (PAGE_SIZE_MAX items
 * within the byte budget), so clients written for the unpaged original get everything they got;
 * `cursor` on the last item when more follow.
 */
export const wholeListParams = {
  page_size: queryInt({ min: 1, max: PAGE_SIZE_MAX, description: `Items per page (default and at most ${PAGE_SIZE_MAX}: the whole list when it fits). ${PAGE_SIZE_RULE}` }).default(
    PAGE_SIZE_MAX,
  ),
  cursor: cursorParam,
};

export const wholeListQuery = z.strictObject(wholeListParams);

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

/** `page_size` and `cursor` of a list. */
export type PageParams = { page_size: number; cursor?: string };

/** `page_size`, `cursor` and, on lists that take it, `global_sort_key`. */
export interface SortedPageParams {
  page_size: number;
  cursor?: string;
  global_sort_key?: SortKeyName;
}

/**
 * A CRM page, being read: every list shows `count` (all records matching the filter) on its first
 * item and the cursor after its last (http/page-reply.ts fills it within its size and byte budget).
 */
export type Page<T> = CountedPageReader<T>;

/**
 * The CRM lists on the one keyset pager (`@lib/paging`), in any order of numeric fields ending with
 * `_id` (creation order unless told), always counted, the cursor bound to `scope` (the list, its
 * account and filter) and its order. An empty `cursor` is the first page. With `orderFromCursor`,
 * a cursor's own order wins over the default (a client that sent `global_sort_key` on the first
 * page only keeps its order); an order the request names explicitly must be the cursor's (400
 * otherwise, before any query).
 */
export function crmPager(secret: string) {
  const pager = keysetPager(secret);

  const page = async <T extends { _id: number }>(
    from: PageSource<T>,
    filter: Record<string, unknown>,
    params: { page_size: number; cursor?: string },
    scope: string,
    requested: SortKey[] = BY_CREATION,
    orderFromCursor = false,
  ): Promise<Page<T>> =>
    pager.open(
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

    /** The first `size` records in creation order, uncounted and without a cursor of their own (D8/D9's view). */
    first: <T extends { _id: number }>(from: PageSource<T>, filter: Record<string, unknown>, size: number): PageReader<T> =>
      pager.open({ size }, { from, filter, scope: '', order: BY_CREATION }),
  };
}

export type CrmPager = ReturnType<typeof crmPager>;

/**
 * A page a service answers: the records being read, and how to read what they are shown with
 * (owners, related contacts, track names), batch by batch as the page fills (http/page-reply.ts).
 * The service reads; the view only maps.
 */
export interface ShownPage<T, R> {
  page: Page<T>;
  related(records: T[]): Promise<R>;
}

/** One record a service answers, with what it is shown with (read as a page's batch is). */
export interface Shown<T, R> {
  item: T;
  related: R;
}

/** A page whose records are shown as they are (notes: ids only). */
export const shownAsIs = <T>(page: Page<T>): ShownPage<T, undefined> => ({ page, related: async () => undefined });
