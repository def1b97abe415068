import { HttpError } from '@lib/errors';
import { driverCollection } from '@lib/mongo';
import { useTestDatabase } from '@lib/testing';
import { Schema, type Model } from 'mongoose';
import { CursorCodec } from './cursor';
import type { SortKey } from './keyset';
import { collectionSource, modelSource, type PageSource } from './page-source';
import { keysetPager, type Page, type PageQuery } from './pager';
import { sortKeysOf } from './sort-key';

interface Item {
  _id: number;
  score: number;
  at: Date;
  group: string;
}

const SECRET = 'pager-test-secret';
const TOTAL = 23;
const pager = keysetPager(SECRET);

/** Asserts the page call fails with the one cursor error: a 400 `invalid_cursor` naming the cursor. */
async function expectInvalidCursor(call: Promise<unknown>, message = /^cursor: /): Promise<HttpError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HttpError);
  const httpError = err as HttpError;
  expect(httpError.status).toBe(400);
  expect(httpError.code).toBe('invalid_cursor');
  expect(httpError.message).toMatch(message);
  expect(httpError.details).toEqual([{ field: 'cursor', message: expect.any(String) }]);
  return httpError;
}

describe('keysetPager against the database', () => {
  const db = useTestDatabase();
  const itemSchema = new Schema<Item>({ _id: Number, score: Number, at: Date, group: String }, { versionKey: false });
  itemSchema.index({ score: 1, _id: 1 });
  itemSchema.index({ at: 1, _id: 1 });
  const model = (): Model<Item> => db.connection.models.Item ?? db.connection.model<Item>('Item', itemSchema, 'items');

  // 23 items with 3 scores and 4 instants: most sort values are shared, only the id breaks ties
  const all: Item[] = Array.from({ length: TOTAL }, (_, i) => ({
    _id: i + 1,
    score: (i * 7) % 3,
    at: new Date(Date.UTC(2026, 10, 1 + ((i * 5) % 4))),
    group: i % 2 === 0 ? 'even' : 'odd',
  }));

  beforeAll(async () => {
    await model().createIndexes();
    await model().insertMany(all);
  });

  const sources: Array<[string, () => PageSource<Item>]> = [
    ['a mongoose model', () => modelSource(model())],
    ['the driver collection', () => collectionSource(driverCollection(model())) as PageSource<Item>],
  ];

  const query = (overrides: Partial<PageQuery<Item>> = {}): PageQuery<Item> => ({
    from: modelSource(model()),
    filter: {},
    scope: 'items',
    order: sortKeysOf('score'),
    ...overrides,
  });

  /** Follows every cursor to the last page; returns the pages. */
  async function walk(size: number, q: PageQuery<Item>): Promise<Array<Page<Item>>> {
    const pages: Array<Page<Item>> = [];
    let cursor: string | undefined;
    do {
      const page = await pager.page({ size, cursor }, q);
      pages.push(page);
      cursor = page.next;
      if (pages.length > TOTAL + 1) throw new Error('paging does not end');
    } while (cursor);
    return pages;
  }

  function expectedIds(items: Item[], order: SortKey[]): number[] {
    return [...items]
      .sort((a, b) => {
        for (const { field, direction } of order) {
          const [x, y] = [Number(a[field as keyof Item]), Number(b[field as keyof Item])];
          if (x !== y) return (x < y ? -1 : 1) * direction;
        }
        return 0;
      })
      .map((item) => item._id);
  }

  describe.each(sources)('read from %s', (_name, source) => {
    it.each([
      ['score, ties broken by id', sortKeysOf('score')],
      ['-score, ties broken by id descending', sortKeysOf('-score')],
      ['a date field, newest first', sortKeysOf('-at')],
      ['a date field, oldest first', sortKeysOf('at')],
      ['the id alone', [{ field: '_id', direction: 1 }] as SortKey[]],
    ])('visits every item exactly once in order: %s', async (_order, order) => {
      const pages = await walk(5, query({ from: source(), order }));
      expect(pages.map((p) => p.items.length)).toEqual([5, 5, 5, 5, 3]);
      const seen = pages.flatMap((p) => p.items.map((item) => item._id));
      expect(seen).toEqual(expectedIds(all, order));
      expect(pages.slice(0, -1).every((p) => typeof p.next === 'string')).toBe(true);
      expect('next' in pages[pages.length - 1]).toBe(false);
      // dates come back as dates
      expect(pages[0].items[0].at).toBeInstanceOf(Date);
    });

    it('counts every match of the filter on every page when asked, and only then', async () => {
      const counted = await walk(4, query({ from: source(), filter: { group: 'odd' }, count: true }));
      expect(counted.map((p) => p.count)).toEqual([11, 11, 11]);
      expect(counted.flatMap((p) => p.items.map((i) => i.group))).toEqual(Array(11).fill('odd'));
      const uncounted = await pager.page({ size: 4 }, query({ from: source() }));
      expect('count' in uncounted).toBe(false);
      expect(uncounted.items).toHaveLength(4);
    });
  });

  it('ends on a full last page without an empty one after it', async () => {
    // 12 even items, pages of 4 and of 12
    const byFour = await walk(4, query({ filter: { group: 'even' } }));
    expect(byFour.map((p) => p.items.length)).toEqual([4, 4, 4]);
    expect(byFour[2].next).toBeUndefined();
    const whole = await pager.page({ size: 12 }, query({ filter: { group: 'even' }, count: true }));
    expect(whole.items).toHaveLength(12);
    expect(whole.next).toBeUndefined();
    expect(whole.count).toBe(12);
  });

  it('answers an empty list with no cursor and a count of 0', async () => {
    const page = await pager.page({ size: 5 }, query({ filter: { group: 'none' }, count: true }));
    expect(page).toEqual({ items: [], count: 0 });
  });

  it('pages from the position: an item added before it stays out, one added after it comes in', async () => {
    const Item = model();
    const byId = query({ order: [{ field: '_id', direction: 1 }] });
    const first = await pager.page({ size: 3 }, byId);
    expect(first.items.map((i) => i._id)).toEqual([1, 2, 3]);
    await Item.insertMany([0, 100].map((_id) => ({ _id, score: 0, at: new Date(), group: 'late' })));
    try {
      const rest = await pager.page({ size: 50, cursor: first.next }, byId);
      expect(rest.items.map((i) => i._id)).toEqual([...Array.from({ length: TOTAL - 3 }, (_, i) => i + 4), 100]);
      expect(rest.next).toBeUndefined();
    } finally {
      await Item.deleteMany({ group: 'late' });
    }
  });

  describe('cursors', () => {
    let cursor: string;
    beforeAll(async () => {
      cursor = (await pager.page({ size: 2 }, query())).next as string;
    });

    it('are opaque and signed', async () => {
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
      expect(cursor).not.toContain('score');
      const next = await pager.page({ size: 2, cursor }, query());
      expect(next.items.map((i) => i._id)).toEqual(expectedIds(all, sortKeysOf('score')).slice(2, 4));
    });

    it('refuse a tampered body or signature, garbage and an empty string', async () => {
      const [body, signature] = cursor.split('.');
      const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      const forged = Buffer.from(JSON.stringify({ ...payload, k: [payload.k[0], payload.k[1] + 1] })).toString('base64url');
      const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
      for (const bad of [`${forged}.${signature}`, `${body}.${flipped}`, `${cursor}x`, `${cursor}.x`, 'garbage', 'a.b', '']) {
        await expectInvalidCursor(pager.page({ size: 2, cursor: bad }, query()));
      }
    });

    it('refuse a cursor signed with another secret', async () => {
      const foreign = (await keysetPager('another-secret').page({ size: 2 }, query())).next as string;
      await expectInvalidCursor(pager.page({ size: 2, cursor: foreign }, query()));
    });

    it('refuse a cursor of another scope (list, account or filter)', async () => {
      await expectInvalidCursor(pager.page({ size: 2, cursor }, query({ scope: 'items:other-filter' })));
      await expectInvalidCursor(pager.page({ size: 2, cursor }, query({ scope: '' })));
    });

    it('refuse a cursor of another order, naming the order parameter when given', async () => {
      for (const order of [sortKeysOf('-score'), sortKeysOf('at'), [{ field: '_id', direction: 1 }] as SortKey[]]) {
        await expectInvalidCursor(pager.page({ size: 2, cursor }, query({ order })), /^cursor: was issued for another order; /);
      }
      await expectInvalidCursor(pager.page({ size: 2, cursor }, query({ order: sortKeysOf('at'), orderParam: 'global_sort_key' })), /another order \(global_sort_key\)/);
    });

    it("follow the cursor's own order when the request names none", async () => {
      const newest = await pager.page({ size: 5 }, query({ order: sortKeysOf('-at') }));
      const next = await pager.page({ size: 5, cursor: newest.next }, query({ order: sortKeysOf('score'), orderFromCursor: true }));
      expect(next.items.map((i) => i._id)).toEqual(expectedIds(all, sortKeysOf('-at')).slice(5, 10));
    });

    it('refuse a correctly signed position that does not fit its order', async () => {
      const codec = new CursorCodec(SECRET);
      for (const payload of [
        { k: [1], o: 'score:1,_id:1' },
        { k: [1, 2], o: 'score' },
        { k: [1, 2], o: '$where:1,_id:1' },
        { k: [], o: '' },
        { after: 2 },
        { k: [{ d: 'x' }, 1], o: 'at:1,_id:1' },
      ]) {
        await expectInvalidCursor(pager.page({ size: 2, cursor: codec.encode(payload, 'items') }, query({ orderFromCursor: true })));
      }
    });
  });

  describe.each(sources)('open, read from %s: a page read batch after batch', (_name, source) => {
    it.each([
      ['score', sortKeysOf('score')],
      ['-at', sortKeysOf('-at')],
    ])('each read continues right after the last item read, in order %s; the count is of the filter', async (_order, order) => {
      const reader = pager.open({ size: 20 }, query({ from: source(), order, filter: { group: 'odd' }, count: true }));
      const reads = [await reader.read(4), await reader.read(3), await reader.read(10), await reader.read(5)];
      expect(reads.map((r) => r.length)).toEqual([4, 3, 4, 0]);
      expect(reads.flat().map((i) => i._id)).toEqual(expectedIds(all.filter((i) => i.group === 'odd'), order));
      await expect(reader.count).resolves.toBe(11);
    });

    it('a cursor after any item read resumes right after it, whatever was read beyond it', async () => {
      const order = sortKeysOf('score');
      const reader = pager.open({ size: 6 }, query({ from: source(), order }));
      const read = [...(await reader.read(4)), ...(await reader.read(4))];
      const next = await pager.page({ size: 6, cursor: reader.cursorAfter(read[2]) }, query({ from: source(), order }));
      expect(next.items.map((i) => i._id)).toEqual(expectedIds(all, order).slice(3, 9));
    });
  });

  it('refuses to make a cursor from a sort value it cannot carry, and a page size below 1', async () => {
    await expect(pager.page({ size: 2 }, query({ order: [{ field: 'missing', direction: 1 }, { field: '_id', direction: 1 }] }))).rejects.toThrow(
      'the sort field missing holds undefined',
    );
    await expect(pager.page({ size: 0 }, query())).rejects.toThrow('page size');
    await expect(pager.page({ size: 2 }, query({ order: [] }))).rejects.toThrow('tie-breaker');
  });
});

describe('keysetPager queries', () => {
  /** A source that records what it is asked and answers ids 1..n in order. */
  function recording(n: number) {
    const finds: Array<{ filter: Record<string, unknown>; sort: Record<string, 1 | -1>; limit: number }> = [];
    const counts: Array<Record<string, unknown>> = [];
    const source: PageSource<{ _id: number }> = {
      find: async (filter, sort, limit) => {
        finds.push({ filter, sort, limit });
        return Array.from({ length: Math.min(limit, n) }, (_, i) => ({ _id: i + 1 }));
      },
      count: async (filter) => {
        counts.push(filter);
        return n;
      },
    };
    return { source, finds, counts };
  }
  const byId: SortKey[] = [{ field: '_id', direction: 1 }];

  it('fetches size + 1 in the order, never skips, and adds the keyset clause to the filter', async () => {
    const { source, finds, counts } = recording(10);
    const first = await pager.page({ size: 3 }, { from: source, filter: { account: 7 }, scope: 's', order: byId, count: true });
    await pager.page({ size: 3, cursor: first.next }, { from: source, filter: { account: 7 }, scope: 's', order: byId, count: true });
    expect(finds).toEqual([
      { filter: { account: 7 }, sort: { _id: 1 }, limit: 4 },
      { filter: { $and: [{ account: 7 }, { _id: { $gt: 3 } }] }, sort: { _id: 1 }, limit: 4 },
    ]);
    // the count is of the filter alone, on every page
    expect(counts).toEqual([{ account: 7 }, { account: 7 }]);
  });

  it('open refuses a bad cursor at once, before any query; a read takes at least one item', async () => {
    const { source, finds, counts } = recording(10);
    const q = { from: source, filter: {}, scope: 's', order: byId, count: true as const };
    expect(() => pager.open({ size: 2, cursor: 'garbage' }, q)).toThrow(HttpError);
    expect([finds, counts]).toEqual([[], []]);
    const reader = pager.open({ size: 2 }, q);
    await expect(reader.read(0)).rejects.toThrow('a read takes a whole number of items from 1');
  });

  it('a count that fails while nobody awaits it is no unhandled rejection; awaiting it still fails', async () => {
    const failing: PageSource<{ _id: number }> = { find: async () => [], count: () => Promise.reject(new Error('count failed')) };
    const reader = pager.open({ size: 2 }, { from: failing, filter: {}, scope: 's', order: byId, count: true });
    await new Promise((resolve) => setImmediate(resolve));
    await expect(reader.count).rejects.toThrow('count failed');
  });

  it('sends the keyset clause alone when the filter is empty, and counts nothing unless asked', async () => {
    const { source, finds, counts } = recording(10);
    const first = await pager.page({ size: 2 }, { from: source, filter: {}, scope: 's', order: byId });
    await pager.page({ size: 2, cursor: first.next }, { from: source, filter: {}, scope: 's', order: byId });
    expect(finds.map((f) => f.filter)).toEqual([{}, { _id: { $gt: 2 } }]);
    expect(counts).toEqual([]);
  });
});
