import { MAX_CURSOR_LENGTH } from '@lib/paging';

/**
 * The byte budget of one page (docs/RESILIENCE.md, "Bounds"; apps/crm-api/README.md, "Limits").
 * Every list accepts up to PAGE_SIZE_MAX items per page and ends a page early, with the cursor on
 * its last item, when the next item would take the answer as sent (JSON or XML) over the budget:
 * see http/page-reply.ts. Each list's worst item (its `*.paging.ts`, from the stored bounds) is measured
 * in test/page-budget.spec.ts and fits the budget, so a page is never empty while items remain.
 */
export const PAGE_BUDGET_BYTES = 8 * 1024 * 1024;

/** The most bytes one stored character takes as sent: `&` is `&amp;` in XML (any character is at most 3 in JSON's UTF-8). */
export const SENT_BYTES_PER_CHAR = 5;
/** The most bytes one character takes as stored (UTF-8 in BSON). */
export const STORED_BYTES_PER_CHAR = 3;

/** What the cursor on a page's last item adds at most: `<cursor>…</cursor>` (`,"cursor":"…"` in JSON is shorter). */
export const CURSOR_BYTES = MAX_CURSOR_LENGTH + '<cursor></cursor>'.length;

/**
 * Related records (a deal's, task's or event's contacts, shown in full) presented at once weigh at
 * most this as sent at their bounds: a page's presentation holds no more of them at a time.
 */
export const PRESENTED_AT_ONCE_BYTES = PAGE_BUDGET_BYTES;

/** How one list's items are read and presented within the budget. */
export interface ListReading<T> {
  /** Items read from the database at a time. */
  readBatch: number;
  /** Bytes presenting an item loads besides the item itself, at worst (its related contacts in full). */
  loads?(item: T): number;
}

/** Items read at once: as many as weigh one page budget as stored at their bounds (`storedWorst` each). */
export const readBatchFor = (storedWorst: number) => Math.max(1, Math.floor(PAGE_BUDGET_BYTES / storedWorst));
