import type { PageReader } from './pager';

/** How a page is filled: its bounds, and how its items are read, presented and written. */
export interface PageFill<T, V> {
  /** Most items on the page (the page size asked for). */
  size: number;
  /**
   * Bytes the items' texts may take together, separators included. The first item is taken
   * whatever its size (a page is never empty while items remain): the caller's stored bounds
   * must keep one item within this.
   */
  bytes: number;
  /** Bytes between two items' texts (`,` in a JSON list; none in XML). */
  separatorBytes: number;
  /** Items read from the database at a time: how many of them fit the read's memory bound at their worst. */
  readBatch: number;
  /** Bytes that presenting the item loads besides the item itself, at worst (its related records). 0 when omitted. */
  loads?(item: T): number;
  /** The most `loads` presented at once; an item that loads more alone is presented on its own. */
  loadsAtOnce?: number;
  /** Views of the items, one per item, in order. */
  present(items: T[]): Promise<V[]>;
  /** The text of one view as the answer carries it; `index` is its place on the page. */
  write(view: V, index: number): string;
}

export interface FilledPage<T, V> {
  /** The items' texts, in order: at least one unless the list has no item after the cursor. */
  texts: string[];
  /** Bytes of the texts and the separators between them. */
  bytes: number;
  /** The page's last item and its view, to write it again with its cursor. */
  last?: { item: T; view: V };
  /** More items follow the last one: the page ended at its size or its byte budget. */
  more: boolean;
}

/** The leading items of `items` whose loads together stay within `most` (at least one), taken out of `items`. */
function nextChunk<T>(items: T[], most: number, loads: (item: T) => number, atOnce: number): T[] {
  let end = 0;
  let total = 0;
  while (end < items.length && end < most) {
    total += loads(items[end]);
    if (end > 0 && total > atOnce) break;
    end++;
  }
  return items.splice(0, end);
}

/**
 * Fills a page within its size and its byte budget, as DynamoDB's 1 MB pages end: items are read
 * `readBatch` at a time (the page's `size + 1` in all at most, the one beyond telling whether more
 * follow), presented a chunk at a time (`loadsAtOnce`), and each written and measured as it will be
 * sent; the page ends before the first item that would take it over `bytes`. Reading stops there,
 * so a request holds at most its page, one read batch and one presented chunk, whatever the page
 * size asked for. The page's cursor goes after `last`, which every item before it is.
 */
export async function fillPage<T, V>(reader: PageReader<T>, fill: PageFill<T, V>): Promise<FilledPage<T, V>> {
  if (!Number.isInteger(fill.readBatch) || fill.readBatch < 1) throw new Error(`fillPage: a read batch is a whole number from 1, not ${fill.readBatch}`);
  const loads = fill.loads ?? (() => 0);
  const atOnce = fill.loadsAtOnce ?? Infinity;
  const texts: string[] = [];
  let bytes = 0;
  let last: FilledPage<T, V>['last'];
  let buffered: T[] = [];
  let read = 0;
  let exhausted = false;
  while (texts.length < fill.size) {
    if (buffered.length === 0) {
      if (exhausted) return { texts, bytes, last, more: false };
      // up to size + 1 in all; a last read of one item more than a batch saves a read of one
      const left = fill.size + 1 - read;
      const n = left <= fill.readBatch + 1 ? left : fill.readBatch;
      buffered = await reader.read(n);
      read += buffered.length;
      exhausted = buffered.length < n;
      if (buffered.length === 0) return { texts, bytes, last, more: false };
    }
    const chunk = nextChunk(buffered, fill.size - texts.length, loads, atOnce);
    const views = await fill.present(chunk);
    if (views.length !== chunk.length) throw new Error(`fillPage: present gave ${views.length} views of ${chunk.length} items`);
    for (let i = 0; i < chunk.length; i++) {
      const text = fill.write(views[i], texts.length);
      const cost = Buffer.byteLength(text) + (texts.length > 0 ? fill.separatorBytes : 0);
      if (texts.length > 0 && bytes + cost > fill.bytes) return { texts, bytes, last, more: true };
      texts.push(text);
      bytes += cost;
      last = { item: chunk[i], view: views[i] };
    }
  }
  // the page is full: the item read beyond it, if any, says more follow
  return { texts, bytes, last, more: buffered.length > 0 };
}
