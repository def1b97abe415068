import { fillPage, type PageFill } from './fill-page';
import type { PageReader } from './pager';

interface Item {
  id: number;
  /** Bytes of its text as written. */
  bytes: number;
  /** What presenting it loads. */
  related: number;
}

/** A list of `items` read as the pager reads it: each read continues after the last; records every read size. */
function reader(items: Item[], size: number) {
  const reads: number[] = [];
  let at = 0;
  const r: PageReader<Item> = {
    size,
    read: async (n) => {
      reads.push(n);
      const batch = items.slice(at, at + n);
      at += batch.length;
      return batch;
    },
    cursorAfter: (item) => `after:${item.id}`,
  };
  return { reader: r, reads };
}

const list = (n: number, bytes: (id: number) => number = () => 10, related: (id: number) => number = () => 0): Item[] =>
  Array.from({ length: n }, (_, i) => ({ id: i + 1, bytes: bytes(i + 1), related: related(i + 1) }));

/** Texts `#<id>` padded to the item's bytes; records what is presented at once. */
function fill(overrides: Partial<PageFill<Item, Item>> = {}) {
  const presented: number[][] = [];
  const options: PageFill<Item, Item> = {
    size: 20,
    bytes: 1_000,
    separatorBytes: 1,
    readBatch: 50,
    loads: (item) => item.related,
    loadsAtOnce: 100,
    present: async (items) => {
      presented.push(items.map((i) => i.id));
      return items;
    },
    write: (item) => `#${item.id}`.padEnd(item.bytes, '.'),
    ...overrides,
  };
  return { options, presented };
}
const ids = (texts: string[]) => texts.map((t) => Number(/^#(\d+)/.exec(t)?.[1]));

it('a list shorter than the page: every item, no more, in one read of size + 1', async () => {
  const { reader: r, reads } = reader(list(7), 20);
  const { options } = fill();
  const page = await fillPage(r, options);
  expect(ids(page.texts)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  expect(page.more).toBe(false);
  expect(page.last?.item.id).toBe(7);
  expect(page.bytes).toBe(7 * 10 + 6);
  expect(reads).toEqual([21]);
});

it('ends at the page size; the item read beyond it says more follow, and is not presented', async () => {
  const { reader: r, reads } = reader(list(30), 20);
  const { options, presented } = fill();
  const page = await fillPage(r, options);
  expect(ids(page.texts)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  expect(page.more).toBe(true);
  expect(page.last?.item.id).toBe(20);
  expect(reads).toEqual([21]);
  expect(presented.flat()).not.toContain(21);
});

it('a list of exactly the page size: full, and no more', async () => {
  const { reader: r } = reader(list(20), 20);
  const page = await fillPage(r, fill().options);
  expect(page.texts).toHaveLength(20);
  expect(page.more).toBe(false);
});

it('ends before the item that would pass the byte budget, separators counted: bytes ≤ budget, more follow', async () => {
  const { reader: r } = reader(list(200, () => 100), 200);
  const page = await fillPage(r, fill({ size: 200, bytes: 1_000 }).options);
  // 9 items of 100 with 8 separators = 908; a 10th would make 1,009
  expect(ids(page.texts)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  expect(page.bytes).toBe(908);
  expect(page.more).toBe(true);
  expect(page.last?.item.id).toBe(9);
});

it('takes an item that fills the budget exactly', async () => {
  const { reader: r } = reader(list(5, () => 333), 5);
  const page = await fillPage(r, fill({ bytes: 1_001 }).options);
  expect(page.texts).toHaveLength(3);
  expect(page.bytes).toBe(1_001);
  expect(page.more).toBe(true);
});

it('always takes the first item, even one larger than the budget (a page is never empty while items remain)', async () => {
  const { reader: r } = reader(list(3, (id) => (id === 1 ? 5_000 : 10)), 10);
  const page = await fillPage(r, fill().options);
  expect(ids(page.texts)).toEqual([1]);
  expect(page.more).toBe(true);
  expect(page.last?.item.id).toBe(1);
});

it('measures bytes as UTF-8, as they are sent', async () => {
  const { reader: r } = reader(list(10), 10);
  const page = await fillPage(r, fill({ bytes: 100, write: (item) => `#${item.id}${'€'.repeat(10)}` }).options);
  // "#1" + 10 × 3 bytes = 32 bytes each: 3 items with separators = 98
  expect(page.texts).toHaveLength(3);
  expect(page.bytes).toBe(98);
});

it('reads in batches, the last a batch and one, and stops reading once the budget is reached', async () => {
  const big = reader(list(500), 200);
  await fillPage(big.reader, fill({ size: 200, bytes: 1_000_000, readBatch: 40 }).options);
  expect(big.reads).toEqual([40, 40, 40, 40, 41]);
  const small = reader(list(500, () => 100), 200);
  const page = await fillPage(small.reader, fill({ size: 200, bytes: 5_000, readBatch: 40 }).options);
  expect(page.texts).toHaveLength(49);
  expect(small.reads).toEqual([40, 40]);
});

it('a list ending on a batch boundary: one read more, which finds nothing', async () => {
  const { reader: r, reads } = reader(list(80), 200);
  const page = await fillPage(r, fill({ size: 200, bytes: 1_000_000, readBatch: 40 }).options);
  expect(page.texts).toHaveLength(80);
  expect(page.more).toBe(false);
  expect(reads).toEqual([40, 40, 40]);
});

it('presents the items of a read in chunks whose loads stay within loadsAtOnce (an item loading more alone)', async () => {
  const related = (id: number) => ({ 1: 60, 2: 30, 3: 30, 4: 250, 5: 10 })[id] ?? 0;
  const { reader: r } = reader(list(8, () => 10, related), 20);
  const { options, presented } = fill({ loadsAtOnce: 100 });
  const page = await fillPage(r, options);
  expect(presented).toEqual([[1, 2], [3], [4], [5, 6, 7, 8]]);
  expect(ids(page.texts)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
});

it('writes each item with its place on the page; an empty list gives an empty page', async () => {
  const places: number[] = [];
  const { reader: r } = reader(list(3), 20);
  await fillPage(r, fill({ write: (item, index) => (places.push(index), `#${item.id}`) }).options);
  expect(places).toEqual([0, 1, 2]);
  const empty = await fillPage(reader([], 20).reader, fill().options);
  expect(empty).toEqual({ texts: [], bytes: 0, last: undefined, more: false });
});

it('refuses a presenter that loses items, and a read batch below 1', async () => {
  await expect(fillPage(reader(list(3), 20).reader, fill({ present: async (items) => items.slice(1) }).options)).rejects.toThrow('present gave 2 views of 3 items');
  await expect(fillPage(reader(list(3), 20).reader, fill({ readBatch: 0 }).options)).rejects.toThrow('read batch');
});
