import { sortOf, type SortKey } from './keyset';
import type { PageSource } from './page-source';

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
  const { from, filter, order, offset, limit } = query;
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`offset paging: a limit is a whole number from 1, not ${limit}`);
  if (!Number.isInteger(offset) || offset < 0) throw new Error(`offset paging: an offset is a whole number from 0, not ${offset}`);
  if (order.length === 0) throw new Error('offset paging: an order needs at least its tie-breaker');
  const [total, items] = await Promise.all([from.count(filter), from.find(filter, sortOf(order), limit, offset)]);
  return { items, total };
}
