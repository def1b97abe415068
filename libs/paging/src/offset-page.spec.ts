import { driverCollection } from '@lib/mongo';
import { useTestDatabase } from '@lib/testing';
import { Schema, type Model } from 'mongoose';
import type { SortKey } from './keyset';
import { fillPage } from './fill-page';
import { offsetPage, openOffsetPage } from './offset-page';
import { collectionSource, modelSource, type PageSource } from './page-source';

interface Item {
  _id: number;
  group: string;
}

const TOTAL = 23;
const byId: SortKey[] = [{ field: '_id', direction: 1 }];
const newestFirst: SortKey[] = [{ field: '_id', direction: -1 }];
const ids = (items: Item[]) => items.map((item) => item._id);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('offsetPage against the database', () => {
  const db = useTestDatabase();
  const model = (): Model<Item> => db.connection.models.OffsetItem ?? db.connection.model<Item>('OffsetItem', new Schema<Item>({ _id: Number, group: String }, { versionKey: false }), 'offset_items');

  beforeAll(async () => {
    // stored out of order, so that only the sort can put them in order
    await model().insertMany(range(1, TOTAL).reverse().map((_id) => ({ _id, group: _id % 2 === 0 ? 'even' : 'odd' })));
  });

  const sources: Array<[string, () => PageSource<Item>]> = [
    ['a mongoose model', () => modelSource(model())],
    ['the driver collection', () => collectionSource(driverCollection(model())) as PageSource<Item>],
  ];

  describe.each(sources)('from %s', (_name, source) => {
    it('walks the list in order, page after page, with the total on each', async () => {
      const seen: number[] = [];
      for (let offset = 0; offset < TOTAL + 5; offset += 5) {
        const page = await offsetPage({ from: source(), filter: {}, order: byId, offset, limit: 5 });
        expect(page.total).toBe(TOTAL);
        expect(page.items.length).toBe(Math.max(0, Math.min(5, TOTAL - offset)));
        seen.push(...ids(page.items));
      }
      expect(seen).toEqual(range(1, TOTAL));
    });

    it('pages the matches of the filter, in the order asked, and answers no items past the end', async () => {
      const page = await offsetPage({ from: source(), filter: { group: 'odd' }, order: newestFirst, offset: 2, limit: 3 });
      expect(page).toEqual({ total: 12, items: [19, 17, 15].map((_id) => ({ _id, group: 'odd' })) });
      expect(await offsetPage({ from: source(), filter: {}, order: byId, offset: 1_000_000, limit: 5 })).toEqual({ total: TOTAL, items: [] });
    });
  });
});

describe('openOffsetPage: a page by offset filled within a byte budget', () => {
  const db = useTestDatabase();
  const model = (): Model<Item> => db.connection.models.OffsetItem ?? db.connection.model<Item>('OffsetItem', new Schema<Item>({ _id: Number, group: String }, { versionKey: false }), 'offset_items');
  beforeAll(() => model().insertMany(range(1, TOTAL).map((_id) => ({ _id, group: 'g' }))));

  /** A page of `size` at `offset` whose items' texts (`{"_id":N,"group":"g"}`, 23 or 24 bytes) may take `bytes`. */
  const filled = (offset: number, size: number, bytes: number) => {
    const reader = openOffsetPage({ from: modelSource(model()), filter: {}, order: byId, offset, limit: size });
    return Promise.all([fillPage(reader, { size, bytes, separatorBytes: 1, readBatch: 4, present: async (items) => items, write: (item) => JSON.stringify(item) }), reader.count]);
  };

  it('reads on from where each batch ended and ends the page at its budget; stepping by the items shown sees each item once', async () => {
    const seen: number[] = [];
    for (let offset = 0; offset < TOTAL; ) {
      const [page, total] = await filled(offset, 10, 100);
      expect(total).toBe(TOTAL);
      expect(page.bytes).toBeLessThanOrEqual(100);
      expect(page.texts.length).toBeGreaterThan(0);
      seen.push(...page.texts.map((text) => JSON.parse(text)._id));
      offset += page.texts.length;
    }
    expect(seen).toEqual(range(1, TOTAL));
  });

  it('a page within its budget takes its size, and says whether more follow', async () => {
    const [page] = await filled(5, 10, 10_000);
    expect(page.texts.map((text) => JSON.parse(text)._id)).toEqual(range(6, 15));
    expect(page.more).toBe(true);
    const [end] = await filled(20, 10, 10_000);
    expect([end.texts.length, end.more]).toEqual([3, false]);
  });

  it('has no cursor', () => {
    const reader = openOffsetPage({ from: modelSource(model()), filter: {}, order: byId, offset: 0, limit: 1 });
    expect(() => reader.cursorAfter({ _id: 1, group: 'g' })).toThrow('a page by offset has no cursor');
  });
});

describe('offsetPage queries', () => {
  function recording() {
    const finds: unknown[][] = [];
    const source: PageSource<{ _id: number }> = {
      find: async (...args) => {
        finds.push(args);
        return [];
      },
      count: async () => 0,
    };
    return { source, finds };
  }

  it('asks the source for the sorted page at the offset', async () => {
    const { source, finds } = recording();
    await offsetPage({ from: source, filter: { a: 1 }, order: [{ field: 'at', direction: -1 }, ...newestFirst], offset: 40, limit: 20 });
    expect(finds).toEqual([[{ a: 1 }, { at: -1, _id: -1 }, 20, 40]]);
  });

  it('refuses a limit below 1, a negative or fractional offset and an order without keys (a caller bug, not a client error)', async () => {
    const { source } = recording();
    await expect(offsetPage({ from: source, filter: {}, order: byId, offset: 0, limit: 0 })).rejects.toThrow('limit');
    await expect(offsetPage({ from: source, filter: {}, order: byId, offset: -1, limit: 5 })).rejects.toThrow('offset');
    await expect(offsetPage({ from: source, filter: {}, order: byId, offset: 1.5, limit: 5 })).rejects.toThrow('offset');
    await expect(offsetPage({ from: source, filter: {}, order: [], offset: 0, limit: 5 })).rejects.toThrow('tie-breaker');
  });
});
