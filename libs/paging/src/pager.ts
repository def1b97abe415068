import { HttpError } from '@lib/errors';
import { CursorCodec } from './cursor';
import { keysetAfter, sortOf, takePage, type SortKey } from './keyset';
import type { PageSource } from './page-source';
import { positionOf, positionSchema, readPosition, type KeyValue } from './position';
import { orderText } from './sort-key';

/** What the client asked for: a page size and the cursor of the previous page. */
export interface PageRequest {
  /** Items per page, at least 1 (the app's schema bounds it). */
  size: number;
  /** The `next` of the previous page; absent for the first page (an empty string is a bad cursor). */
  cursor?: string;
}

/** The list a page is cut from. */
export interface PageQuery<T> {
  from: PageSource<T>;
  filter: Record<string, unknown>;
  /**
   * The list, account and filter the cursor belongs to: a cursor issued for any other scope is
   * refused (400 `invalid_cursor`). The cursor also carries its order (see `orderFromCursor`).
   */
  scope: string;
  /** The order asked for, ending with a unique tie-breaker (`_id`), each order with its index. */
  order: SortKey[];
  /** The request named no order: the cursor's own order wins over `order` (else another order is a 400). */
  orderFromCursor?: boolean;
  /** The query parameter naming the order, for the error when a cursor belongs to another order. */
  orderParam?: string;
  /** Count every match of `filter` too (one more command per page). */
  count?: boolean;
}

export interface Page<T> {
  items: T[];
  /** The cursor of the next page; absent on the last page. */
  next?: string;
  /** Every match of the filter, when the query asked for the count. */
  count?: number;
}
export type CountedPage<T> = Page<T> & { count: number };

const otherOrder = (orderParam?: string) =>
  new HttpError(400, 'invalid_cursor', `cursor: was issued for another order${orderParam ? ` (${orderParam})` : ''}; start again without a cursor or send the same order`, {
    details: [{ field: 'cursor', message: 'belongs to another sort order' }],
  });

/** The filter's matches after the position: the keyset clause alone when the filter is empty. */
const within = (filter: Record<string, unknown>, after: Record<string, unknown>) => (Object.keys(filter).length === 0 ? after : { $and: [filter, after] });

/**
 * A page being read, item batch after item batch (see `fillPage`): it knows where the page starts
 * and signs the cursor after whichever item turns out to be the page's last.
 */
export interface PageReader<T> {
  /** Items per page asked for. */
  readonly size: number;
  /** Every match of the filter, when the query asked for the count (read while the items are). */
  readonly count?: Promise<number>;
  /**
   * The next `n` items (fewer at the end of the list) after those read so far: one indexed range
   * read after the last item read. Calls must not overlap.
   */
  read(n: number): Promise<T[]>;
  /** The cursor of the page that follows `item` (an item this reader read): it resumes right after it. */
  cursorAfter(item: T): string;
}
export type CountedPageReader<T> = PageReader<T> & { readonly count: Promise<number> };

export interface KeysetPager {
  page<T>(request: PageRequest, query: PageQuery<T> & { count: true }): Promise<CountedPage<T>>;
  page<T>(request: PageRequest, query: PageQuery<T>): Promise<Page<T>>;
  /**
   * The page as a reader, for a caller that decides where the page ends as it goes (a byte
   * budget): a bad, foreign or mismatched cursor is a 400 here, before any query.
   */
  open<T>(request: PageRequest, query: PageQuery<T> & { count: true }): CountedPageReader<T>;
  open<T>(request: PageRequest, query: PageQuery<T>): PageReader<T>;
}

/**
 * The one keyset pager of every list: fetches `size + 1` items after the cursor's position in the
 * order, counts the matches when asked, and signs the next cursor (HMAC with `secret`) for exactly
 * this scope and order. Never `skip`: every page costs one indexed range read, whatever its depth.
 */
export function keysetPager(secret: string): KeysetPager {
  const cursors = new CursorCodec(secret);

  /** The order to read in and the position to start after; a bad, foreign or mismatched cursor is a 400. */
  function resume<T>(cursor: string | undefined, query: PageQuery<T>): { order: SortKey[]; after?: KeyValue[] } {
    if (cursor === undefined) return { order: query.order };
    const position = readPosition(cursors.decode(cursor, positionSchema, query.scope));
    if (!position) throw otherOrder(query.orderParam);
    if (!query.orderFromCursor && orderText(position.order) !== orderText(query.order)) throw otherOrder(query.orderParam);
    return position;
  }

  function open<T>(request: PageRequest, query: PageQuery<T>): PageReader<T> {
    if (!Number.isInteger(request.size) || request.size < 1) throw new Error(`keyset paging: a page size is a whole number from 1, not ${request.size}`);
    if (query.order.length === 0) throw new Error('keyset paging: an order needs at least its tie-breaker');
    const start = resume(request.cursor, query);
    const order = start.order;
    let after = start.after;
    const count = query.count ? query.from.count(query.filter) : undefined;
    // awaited by whoever reads the page; a reader that fails first must not leave it unhandled
    count?.catch(() => undefined);
    return {
      size: request.size,
      ...(count && { count }),
      async read(n: number): Promise<T[]> {
        if (!Number.isInteger(n) || n < 1) throw new Error(`keyset paging: a read takes a whole number of items from 1, not ${n}`);
        const range = after ? within(query.filter, keysetAfter(order, after)) : query.filter;
        const items = await query.from.find(range, sortOf(order), n);
        if (items.length > 0) {
          const last = items[items.length - 1] as Record<string, unknown>;
          after = order.map(({ field }) => last[field] as KeyValue);
        }
        return items;
      },
      cursorAfter: (item: T) => cursors.encode(positionOf(item as object, order), query.scope),
    };
  }

  async function page<T>(request: PageRequest, query: PageQuery<T>): Promise<Page<T>> {
    const reader = open(request, query);
    const [count, fetched] = await Promise.all([reader.count, reader.read(request.size + 1)]);
    const { items, hasMore } = takePage(fetched, request.size);
    const next = hasMore ? reader.cursorAfter(items[items.length - 1]) : undefined;
    return { items, ...(next !== undefined && { next }), ...(count !== undefined && { count }) };
  }

  return { page: page as KeysetPager['page'], open: open as KeysetPager['open'] };
}
