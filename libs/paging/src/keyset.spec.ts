import { useTestDatabase } from '@lib/testing';
import { Schema, Types } from 'mongoose';
import { z } from 'zod';
import { CursorCodec } from './cursor';
import { keysetAfter, sortOf, takePage, type SortKey } from './keyset';

describe('keysetAfter', () => {
  it('builds a single comparison for one key, in both directions', () => {
    expect(keysetAfter([{ field: '_id', direction: 1 }], [5])).toEqual({ _id: { $gt: 5 } });
    expect(keysetAfter([{ field: '_id', direction: -1 }], [5])).toEqual({ _id: { $lt: 5 } });
  });

  it('builds (a after x) or (a = x and b after y) for two keys', () => {
    const keys: SortKey[] = [
      { field: 'score', direction: -1 },
      { field: '_id', direction: 1 },
    ];
    expect(keysetAfter(keys, [10, 'id7'])).toEqual({
      $or: [{ score: { $lt: 10 } }, { score: 10, _id: { $gt: 'id7' } }],
    });
    expect(
      keysetAfter(
        [
          { field: 'name', direction: 1 },
          { field: '_id', direction: -1 },
        ],
        ['Ada', 3],
      ),
    ).toEqual({ $or: [{ name: { $gt: 'Ada' } }, { name: 'Ada', _id: { $lt: 3 } }] });
  });

  it('extends to three keys', () => {
    const keys: SortKey[] = [
      { field: 'a', direction: 1 },
      { field: 'b', direction: 1 },
      { field: '_id', direction: 1 },
    ];
    expect(keysetAfter(keys, [1, 2, 3])).toEqual({
      $or: [{ a: { $gt: 1 } }, { a: 1, b: { $gt: 2 } }, { a: 1, b: 2, _id: { $gt: 3 } }],
    });
  });

  it('needs exactly one value per key', () => {
    expect(() => keysetAfter([], [])).toThrow('one value per sort key');
    expect(() => keysetAfter([{ field: 'a', direction: 1 }], [1, 2])).toThrow('one value per sort key');
  });
});

describe('sortOf', () => {
  it('keeps the key order', () => {
    const sort = sortOf([
      { field: 'score', direction: -1 },
      { field: '_id', direction: 1 },
    ]);
    expect(sort).toEqual({ score: -1, _id: 1 });
    expect(Object.keys(sort)).toEqual(['score', '_id']);
  });
});

describe('takePage', () => {
  it('splits a page_size + 1 fetch', () => {
    expect(takePage([1, 2, 3, 4], 3)).toEqual({ items: [1, 2, 3], hasMore: true });
    expect(takePage([1, 2, 3], 3)).toEqual({ items: [1, 2, 3], hasMore: false });
    expect(takePage([1], 3)).toEqual({ items: [1], hasMore: false });
    expect(takePage([], 3)).toEqual({ items: [], hasMore: false });
  });
});

describe('keyset paging against the database', () => {
  const db = useTestDatabase();

  interface Player {
    _id: Types.ObjectId;
    score: number;
    name: string;
  }

  const playerSchema = new Schema<Player>({ score: { type: Number, required: true }, name: { type: String, required: true } });
  // query: list players by score (high first), then by _id
  playerSchema.index({ score: -1, _id: 1 });

  const PAGE_SIZE = 7;
  const TOTAL = 25;
  const codec = new CursorCodec('paging-test');
  /** What a cursor carries: the sort values of the last item seen, ids as hex strings. */
  const cursorSchema = z.strictObject({ after: z.array(z.union([z.number(), z.string()])) });

  const model = () => db.connection.models.Player ?? db.connection.model<Player>('Player', playerSchema, 'players');

  beforeAll(async () => {
    const Player = model();
    await Player.createIndexes();
    // 25 players with only 4 distinct scores: most sort values are shared
    await Player.insertMany(Array.from({ length: TOTAL }, (_, i) => ({ score: i % 4, name: `p${i}` })));
  });

  /** Walks every page through cursors, the way a list endpoint does; returns the pages seen. */
  async function walk(keys: SortKey[]): Promise<Player[][]> {
    const Player = model();
    const pages: Player[][] = [];
    let cursor: string | undefined;
    do {
      let filter = {};
      if (cursor) {
        const { after } = codec.decode(cursor, cursorSchema, 'players');
        filter = keysetAfter(
          keys,
          after.map((value, i) => (keys[i].field === '_id' ? new Types.ObjectId(String(value)) : value)),
        );
      }
      const fetched = await Player.find(filter).sort(sortOf(keys)).limit(PAGE_SIZE + 1).lean<Player[]>();
      const { items, hasMore } = takePage(fetched, PAGE_SIZE);
      pages.push(items);
      const last = items[items.length - 1] as unknown as Record<string, unknown>;
      const after = keys.map(({ field }) => (field === '_id' ? String(last._id) : (last[field] as number)));
      cursor = hasMore ? codec.encode({ after }, 'players') : undefined;
      if (pages.length > 10) throw new Error('paging does not end');
    } while (cursor);
    return pages;
  }

  function expectedOrder(all: Player[], keys: SortKey[]): string[] {
    const value = (doc: Player, field: string) => (field === '_id' ? doc._id.toHexString() : (doc as unknown as Record<string, number>)[field]);
    return [...all]
      .sort((a, b) => {
        for (const { field, direction } of keys) {
          const [x, y] = [value(a, field), value(b, field)];
          if (x !== y) return (x < y ? -1 : 1) * direction;
        }
        return 0;
      })
      .map((d) => d._id.toHexString());
  }

  it.each<[string, SortKey[]]>([
    [
      'score descending, _id ascending',
      [
        { field: 'score', direction: -1 },
        { field: '_id', direction: 1 },
      ],
    ],
    [
      'score ascending, _id descending',
      [
        { field: 'score', direction: 1 },
        { field: '_id', direction: -1 },
      ],
    ],
    ['_id ascending only', [{ field: '_id', direction: 1 }]],
    ['_id descending only', [{ field: '_id', direction: -1 }]],
  ])('visits every document exactly once, in order (%s)', async (_name, keys) => {
    const all = await model().find().lean<Player[]>();
    expect(all).toHaveLength(TOTAL);

    const pages = await walk(keys);
    expect(pages.map((p) => p.length)).toEqual([7, 7, 7, 4]);

    const seen = pages.flat().map((d) => d._id.toHexString());
    expect(new Set(seen).size).toBe(TOTAL);
    expect(seen).toEqual(expectedOrder(all, keys));
  });
});
