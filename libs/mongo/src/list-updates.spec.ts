import { conflict } from '@lib/errors';
import { useTestDatabase } from '@lib/testing';
import { Schema, type Model } from 'mongoose';
import { removeFromLists } from './list-removal';
import { retryWhileRaced } from './retry';
import { updateByRevision } from './revision-update';

interface Record_ {
  _id: number;
  account: number;
  rev: number;
  ids: number[];
  name?: string;
  note?: string;
  updated?: number;
}

describe('updates of stored lists and revised records (on the test database: embedded, or MONGO_URL)', () => {
  const db = useTestDatabase();
  let Rec: Model<Record_>;
  beforeAll(async () => {
    Rec = db.connection.model<Record_>('ListRecord', new Schema<Record_>({ _id: Number, account: Number, rev: Number, ids: [Number], name: String, note: String, updated: Number }, { autoCreate: false, versionKey: false }));
    await Rec.createIndexes();
  });
  beforeEach(() => db.clear());

  const stored = async () => Rec.find().sort({ _id: 1 }).lean();

  it('removeFromLists pulls the values from every matching record, sets alsoSet on those only, and leaves the rest', async () => {
    await Rec.insertMany([
      { _id: 1, account: 1, rev: 0, ids: [1, 2, 3, 2] },
      { _id: 2, account: 1, rev: 0, ids: [4, 5] },
      { _id: 3, account: 2, rev: 0, ids: [2] },
    ]);
    await removeFromLists(Rec, { account: 1 }, 'ids', [2, 5], { updated: 7 });
    expect(await stored()).toEqual([
      { _id: 1, account: 1, rev: 0, ids: [1, 3], updated: 7 },
      { _id: 2, account: 1, rev: 0, ids: [4], updated: 7 },
      { _id: 3, account: 2, rev: 0, ids: [2] },
    ]);
  });

  it('removeFromLists loses no concurrent change of the same list', async () => {
    await Rec.create({ _id: 1, account: 1, rev: 0, ids: Array.from({ length: 30 }, (_, i) => i + 1) });
    await Promise.all([
      ...Array.from({ length: 15 }, (_, i) => removeFromLists(Rec, { _id: 1 }, 'ids', [i + 1])),
      ...Array.from({ length: 10 }, (_, i) => Rec.updateOne({ _id: 1 }, { $addToSet: { ids: 100 + i } })),
    ]);
    const [doc] = await stored();
    expect([...doc.ids].sort((a, b) => a - b)).toEqual([...Array.from({ length: 15 }, (_, i) => i + 16), ...Array.from({ length: 10 }, (_, i) => 100 + i)]);
  });

  it('updateByRevision: concurrent edits of different fields all land, each bumping the revision; null for a missing record', async () => {
    await Rec.create({ _id: 1, account: 1, rev: 0, ids: [] });
    const [a, b] = await Promise.all([
      updateByRevision(Rec, { _id: 1, account: 1 }, () => ({ name: 'n' })),
      updateByRevision(Rec, { _id: 1, account: 1 }, () => ({ note: 'x' })),
    ]);
    expect([a?.rev, b?.rev].sort()).toEqual([1, 2]);
    expect(await Rec.findById(1).lean()).toMatchObject({ name: 'n', note: 'x', rev: 2 });
    expect(await updateByRevision(Rec, { _id: 2, account: 1 }, () => ({ name: 'n' }))).toBeNull();
    expect(await updateByRevision(Rec, { _id: 1, account: 2 }, () => ({ name: 'other account' }))).toBeNull();
  });

  // When the embedded server learns these, removeFromLists becomes one `$pull` (see its comment).
  it('$pull and pipeline updates: refused by the embedded server, applied by MongoDB (MONGO_URL)', async () => {
    await Rec.create({ _id: 1, account: 1, rev: 0, ids: [1, 2, 3] });
    const pull = () => Rec.updateOne({ _id: 1 }, { $pull: { ids: { $in: [2] } } });
    const pipeline = () => Rec.updateOne({ _id: 1 }, [{ $set: { ids: { $filter: { input: '$ids', cond: { $ne: ['$$this', 3] } } } } }], { updatePipeline: true });
    if (process.env.MONGO_URL) {
      await pull();
      await pipeline();
      expect((await Rec.findById(1).lean())?.ids).toEqual([1]);
    } else {
      await expect(pull()).rejects.toThrow(/unsupported update operator: \$pull/);
      await expect(pipeline()).rejects.toThrow(/update pipeline expressions are not supported/);
      expect((await Rec.findById(1).lean())?.ids).toEqual([1, 2, 3]);
    }
  });

  it('retryWhileRaced retries until an attempt answers, and throws its error once the tries are used up', async () => {
    let calls = 0;
    expect(await retryWhileRaced(async (index) => (++calls === 3 ? `won at ${index}` : undefined), () => conflict('lost'))).toBe('won at 2');
    calls = 0;
    await expect(retryWhileRaced(async () => void calls++, () => conflict('lost'), { attempts: 4 })).rejects.toMatchObject({ status: 409, message: 'lost' });
    expect(calls).toBe(4);
    await expect(retryWhileRaced(async () => Promise.reject(new Error('broken')), () => conflict('lost'))).rejects.toThrow('broken');
  });
});
