import type { CountedPage } from '@lib/paging';

/** The envelope of every news-api list: the total of matches, the page, and how to get the next. */
export function pageView<T, V>(page: CountedPage<T>, view: (item: T) => V) {
  return { total: page.count, data: page.items.map(view), has_more: page.next !== undefined, ...(page.next !== undefined && { next_cursor: page.next }) };
}
