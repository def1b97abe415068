import { useTestDatabase } from '@lib/testing';
import { Schema } from 'mongoose';
import { insertTokenField, insertWithSequenceId } from './counter';
import { ID_EPOCH_MS, LAST_ID_MS, timeOrderedId, timeOrderedIds } from './time-ordered-ids';

const AT = Date.UTC(2026, 10, 24, 12, 0, 0);
const slotOf = (ms: number) => (ms - ID_EPOCH_MS) * 4096;

describe('timeOrderedId', () => {
  it('is the millisecond since 2020 times 4,096 plus a random number below 4,096', () => {
    const ids = Array.from({ length: 200 }, () => timeOrderedId(AT));
    for (const id of ids) {
      expect(Number.isSafeInteger(id)).toBe(true);
      expect(id - slotOf(AT)).toBeGreaterThanOrEqual(0);
      expect(id - slotOf(AT)).toBeLessThan(4096);
    }
    // random: 200 draws from 4,096 values are not all alike (a fixed value would be)
    expect(new Set(ids).size).toBeGreaterThan(150);
    expect(timeOrderedId(AT + 1)).toBeGreaterThanOrEqual(slotOf(AT + 1));
  });

  it('follows the previous id of its key when that is in this millisecond or ahead (a clock set back)', () => {
    const first = timeOrderedId(AT);
    expect(timeOrderedId(AT, first)).toBe(first + 1);
    expect(timeOrderedId(AT - 5, first)).toBe(first + 1);
    // a later millisecond draws afresh, above anything of the earlier one
    expect(timeOrderedId(AT + 1, first)).toBeGreaterThanOrEqual(slotOf(AT + 1));
  });

  it('stays a safe integer (a JSON and JavaScript number) until 2089-09-06, and refuses to go past it', () => {
    expect(new Date(LAST_ID_MS).toISOString()).toBe('2089-09-06T15:47:35.550Z');
    expect(slotOf(LAST_ID_MS) + 4095).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
    expect(() => timeOrderedId(LAST_ID_MS + 1)).toThrow('ran past 2^53');
  });
});

describe('timeOrderedIds', () => {
  const db = useTestDatabase();
  beforeEach(() => db.clear());
  const things = () =>
    db.connection.models.TimeThing ?? db.connection.model('TimeThing', new Schema({ _id: Number, ...insertTokenField, name: String }, { versionKey: false }), 'time_things');

  it('A makes one, B five, A one: A\'s second id follows its first, whatever B did', async () => {
    const clock = () => AT;
    const a = timeOrderedIds(db.connection, 'contacts:1', clock);
    const b = timeOrderedIds(db.connection, 'contacts:2', clock);
    const a1 = await a.next();
    const bs = [await b.next(), await b.next(), await b.next(), await b.next(), await b.next()];
    const a2 = await a.next();
    expect(a2).toBe(a1 + 1);
    expect(bs.map((id) => id - bs[0])).toEqual([0, 1, 2, 3, 4]);
  });

  it('grows with the clock, and within a millisecond in the order they are made', async () => {
    let now = AT;
    const ids = timeOrderedIds(db.connection, 'notes:1', () => now);
    const made: number[] = [];
    for (let i = 0; i < 6; i++) {
      made.push(await ids.next());
      if (i % 2) now += 1;
    }
    expect([...made].sort((x, y) => x - y)).toEqual(made);
    expect(made.map((id) => Math.floor(id / 4096) - Math.floor(slotOf(AT) / 4096))).toEqual([0, 0, 1, 1, 2, 2]);
  });

  it('inserts through insertWithSequenceId without a database round trip for the id, and draws again after a taken id', async () => {
    const Thing = things();
    const squatted = timeOrderedId(AT);
    await Thing.create({ _id: squatted, name: 'squatter' });
    // a source whose first draw is the squatted id, then the real generator
    const real = timeOrderedIds(db.connection, 'things:1');
    let draws = 0;
    const source = { next: async () => (draws++ === 0 ? squatted : real.next()), taken: real.taken };
    const doc = await insertWithSequenceId(Thing, source, (id) => ({ _id: id, name: 'new' }));
    expect(doc._id).not.toBe(squatted);
    expect(draws).toBe(2);
    expect((await Thing.find().sort({ _id: 1 }).lean()).map((t) => t.name)).toEqual(['squatter', 'new']);
  });

  it('gives 200 concurrent inserts over 20 keys 200 distinct stored ids', async () => {
    const Thing = things();
    const clock = () => AT; // every insert in one millisecond: draws collide most there
    const made = await Promise.all(
      Array.from({ length: 200 }, (_, i) => insertWithSequenceId(Thing, timeOrderedIds(db.connection, `things:${i % 20}`, clock), (id) => ({ _id: id, name: `t${i}` }))),
    );
    expect(new Set(made.map((d) => d._id)).size).toBe(200);
    expect(await Thing.countDocuments()).toBe(200);
  });
});
