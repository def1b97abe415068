import { listText, negotiate, sendText, type MediaKind } from '@lib/http';
import { fillPage } from '@lib/paging';
import type { Request, Response } from 'express';
import type { Page } from '../paging';
import { CURSOR_BYTES, PAGE_BUDGET_BYTES, PRESENTED_AT_ONCE_BYTES, type ListReading } from './page-budget';
import { sendNoContent } from './reply';

/** How a list answers its page. */
export interface PageAnswer<T, V> {
  reading: ListReading<T>;
  /** Views of the records, one per record, in order. */
  present(records: T[]): Promise<V[]>;
  /** XML names of the list and its items; `fallback` when Accept is absent. */
  xml: { root: string; item: string; fallback?: MediaKind };
  /** An empty page is a 204 without a body (the contact lists); otherwise an empty list. */
  noContentWhenEmpty?: boolean;
}

/**
 * Sends a page as convention 6 shapes it — `count` (every match) on the first item, `cursor` on the
 * last when more follow — in JSON or XML, filled within its size and PAGE_BUDGET_BYTES: each item
 * is written as it will be sent and measured; the page ends before the first that would take the
 * answer over the budget, with the cursor after the last one shown. The answer, the list's frame and
 * the cursor included, is at most PAGE_BUDGET_BYTES (one item at its bounds always fits).
 */
export async function sendPage<T, V extends object>(req: Request, res: Response, page: Page<T>, answer: PageAnswer<T, V>): Promise<void> {
  const kind = negotiate(req, answer.xml.fallback);
  const list = listText(kind, answer.xml);
  let count = 0;
  const decorated = (view: V, index: number) => (index === 0 ? { ...view, count } : view);
  const filled = await fillPage(page, {
    size: page.size,
    bytes: PAGE_BUDGET_BYTES - list.frameBytes - CURSOR_BYTES,
    separatorBytes: list.separatorBytes,
    readBatch: answer.reading.readBatch,
    loads: answer.reading.loads,
    loadsAtOnce: PRESENTED_AT_ONCE_BYTES,
    // the count was read alongside the first items; the first item written carries it
    present: async (records) => {
      const [views, counted] = await Promise.all([answer.present(records), page.count]);
      count = counted;
      return views;
    },
    write: (view, index) => list.item(decorated(view, index)),
  });
  const { texts, last } = filled;
  if (texts.length === 0) {
    if (answer.noContentWhenEmpty) return sendNoContent(res);
    return sendText(res, 200, kind, list.join(texts));
  }
  if (filled.more && last) {
    const at = texts.length - 1;
    texts[at] = list.item({ ...decorated(last.view, at), cursor: page.cursorAfter(last.item) });
  }
  sendText(res, 200, kind, list.join(texts));
}
