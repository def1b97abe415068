import { sortOf, type SortKey } from './keyset';
import type { PageSource } from './page-source';
import type { CountedPageReader } from './pager';

/** A page by position, for the one list whose spec pages that way (articles: `offset` and `limit`). */
export interface OffsetPageQuery<T> {
  from: PageSource<T>;
  filter: Record<string, unknown>;
  /** A total order (ending with a unique tie-breaker), so that consecutive offsets neither repeat nor miss items. */
  order: SortKey[];
  /** Matches to pass over, from 0. */
  offset: number;
  /** Items per page, at least 1 (the app's schema bounds it). */
  limit: number;
}

export interface OffsetPage<T> {
  items: T[];
  /** Every match of the filter. */
  total: number;
}

/**
 * The page at `offset` and the count of every match, read in parallel. Every other list is keyset
 * paged (keysetPager): a deep offset costs the server a walk over what it skips, which the app's
 * schema bounds by the largest offset it accepts.
 */
export async function offsetPage<T>(query: OffsetPageQuery<T>): Promise<OffsetPage<T>> {
  const { from, filter, order, offset, limit } = checked(query);
  const [total, items] = await Promise.all([from.count(filter), from.find(filter, sortOf(order), limit, offset)]);
  return { items, total };
}

function checked<Q extends OffsetPageQuery<unknown>>(query: Q): Q {
  const { order, offset, limit } = query;
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`offset paging: a limit is a whole number from 1, not ${limit}`);
  if (!Number.isInteger(offset) || offset < 0) throw new Error(`offset paging: an offset is a whole number from 0, not ${offset}`);
  if (order.length === 0) throw new Error('offset paging: an order needs at least its tie-breaker');
  return query;
}

/**
 * The page at `offset` as a reader, for `fillPage` (a page that ends at its byte budget): items are
 * read in batches from where the last batch ended, and the count of every match alongside the
 * first. An offset page has no cursor (the next page starts at `offset` plus the items shown), so
 * `cursorAfter` is an error.
 */
export function openOffsetPage<T>(query: OffsetPageQuery<T>): CountedPageReader<T> {
  const { from, filter, order, offset, limit } = checked(query);
  const count = from.count(filter);
  count.catch(() => undefined); // awaited by the caller; a failure before then is not unhandled
  const sort = sortOf(order);
  let read = 0;
  return {
    size: limit,
    count,
    async read(n: number): Promise<T[]> {
      const items = await from.find(filter, sort, n, offset + read);
      read += items.length;
      return items;
    },
    cursorAfter(): string {
      throw new Error('offset paging: a page by offset has no cursor; the next one starts at offset + the items shown');
    },
  };
}
