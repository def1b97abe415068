import { listText, type MediaKind } from '@lib/http';
import { xmlNamesOf } from '@lib/routing';
import type { z } from '@lib/validation';
import { fillPage } from '@lib/paging';
import type { ShownPage } from '../paging';
import { CURSOR_BYTES, PAGE_BUDGET_BYTES, PRESENTED_AT_ONCE_BYTES, type ListReading } from './page-budget';

/** How a list answers its page. */
export interface ListAnswer<T, R, V> {
  reading: ListReading<T>;
  /** Views of the records, one per record, in order, given what the service read with them (no database). */
  view(records: T[], related: R): V[];
  /** XML names of the list and its items: those its response schema declares (listNames). */
  xml: { root: string; item: string };
}

/** The XML names a list's response schema declares (xmlList): a page is written in them, so its text is its body as the reply path writes it. */
export function listNames(schema: z.ZodType): { root: string; item: string } {
  const names = xmlNamesOf(schema);
  if (!names?.item) throw new Error('a list answer needs a response schema naming its XML list and items (xmlList)');
  return { root: names.root, item: names.item };
}

/** An item of a page as convention 6 shapes it: `count` (every match) on the first, `cursor` on the last when more follow. */
export type PagedView<V> = V & { count?: number; cursor?: string };

/**
 * A page's answer in `media`, filled within its size and PAGE_BUDGET_BYTES: each item is written as
 * it will be sent and measured; the page ends before the first that would take the answer over the
 * budget, with the cursor after the last one shown. The answer, the list's frame and the cursor
 * included, is at most PAGE_BUDGET_BYTES (one item at its bounds always fits). `text` is the body
 * as written; `views` the same items as objects (what the response check validates).
 */
async function filled<T, R, V extends object>(media: MediaKind, shown: ShownPage<T, R>, answer: ListAnswer<T, R, V>): Promise<{ views: PagedView<V>[]; text: string }> {
  const { page } = shown;
  const list = listText(media, answer.xml);
  let count = 0;
  const views: PagedView<V>[] = [];
  const decorated = (view: V, index: number): PagedView<V> => (index === 0 ? { ...view, count } : view);
  const result = await fillPage(page, {
    size: page.size,
    bytes: PAGE_BUDGET_BYTES - list.frameBytes - CURSOR_BYTES,
    separatorBytes: list.separatorBytes,
    readBatch: answer.reading.readBatch,
    loads: answer.reading.loads,
    loadsAtOnce: PRESENTED_AT_ONCE_BYTES,
    // the count was read alongside the first items; the first item written carries it
    present: async (records) => {
      const [related, counted] = await Promise.all([shown.related(records), page.count]);
      count = counted;
      return answer.view(records, related);
    },
    write: (view, index) => list.item((views[index] = decorated(view, index))),
  });
  const { texts, last } = result;
  views.length = texts.length; // the view written past the budget is not on the page
  if (result.more && last) {
    const at = texts.length - 1;
    views[at] = { ...decorated(last.view, at), cursor: page.cursorAfter(last.item) };
    texts[at] = list.item(views[at]);
  }
  return { views, text: list.join(texts) };
}

/** A page as a 200 (an empty list when nothing matched). */
export async function pageReply<T, R, V extends object>(media: MediaKind, shown: ShownPage<T, R>, answer: ListAnswer<T, R, V>) {
  const { views, text } = await filled(media, shown, answer);
  return { status: 200 as const, body: views, text };
}

/** A page as a 200, or a 204 without a body when nothing matched (the contact lists). */
export async function pageOrNoContent<T, R, V extends object>(media: MediaKind, shown: ShownPage<T, R>, answer: ListAnswer<T, R, V>) {
  const { views, text } = await filled(media, shown, answer);
  return views.length === 0 ? { status: 204 as const } : { status: 200 as const, body: views, text };
}
