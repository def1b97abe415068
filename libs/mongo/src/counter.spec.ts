import { useTestDatabase } from './testing';
import { Schema } from 'mongoose';
import { createWithSequenceId, nextSequence } from './counter';

describe('nextSequence', () => {
  const db = useTestDatabase();

  it('starts a new sequence at 1 and counts up', async () => {
    expect(await nextSequence(db.connection, 'first')).toBe(1);
    expect(await nextSequence(db.connection, 'first')).toBe(2);
    expect(await nextSequence(db.connection, 'first')).toBe(3);
  });

  it('gives 50 parallel callers 50 distinct consecutive numbers', async () => {
    const numbers = await Promise.all(Array.from({ length: 50 }, () => nextSequence(db.connection, 'parallel')));
    expect(new Set(numbers).size).toBe(50);
    expect([...numbers].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(await nextSequence(db.connection, 'parallel')).toBe(51);
  });

  it('retries once when a concurrent first call inserted the counter (duplicate key on upsert)', async () => {
    expect(await nextSequence(db.connection, 'raced')).toBe(1);
    const Counter = db.connection.models.Counter;
    const spy = jest.spyOn(Counter, 'findOneAndUpdate').mockImplementationOnce(() => {
      throw Object.assign(new Error('E11000 duplicate key error collection: counters'), { code: 11000 });
    });
    try {
      expect(await nextSequence(db.connection, 'raced')).toBe(2);
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
  });

  it('keeps each name its own sequence', async () => {
    const [a1, b1, a2, b2, c1] = [
      await nextSequence(db.connection, 'contacts'),
      await nextSequence(db.connection, 'deals'),
      await nextSequence(db.connection, 'contacts'),
      await nextSequence(db.connection, 'deals'),
      await nextSequence(db.connection, 'notes'),
    ];
    expect([a1, a2, b1, b2, c1]).toEqual([1, 2, 1, 2, 1]);
  });

  it('keeps its state in the counters collection', async () => {
    await nextSequence(db.connection, 'stored');
    await nextSequence(db.connection, 'stored');
    const doc = await db.connection.collection('counters').findOne({ _id: 'stored' as never });
    expect(doc).toEqual({ _id: 'stored', seq: 2 });
  });

  describe('createWithSequenceId', () => {
    const model = () =>
      db.connection.models.Thing ?? db.connection.model('Thing', new Schema({ _id: Number, name: { type: String, unique: true } }, { versionKey: false }), 'things');

    it('answers with the stored document when its own insert was already applied (a retried write)', async () => {
      await model().createIndexes();
      const first = await createWithSequenceId(model(), { _id: 1, name: 'a' });
      expect(first).toEqual({ _id: 1, name: 'a' });
      expect(await createWithSequenceId(model(), { _id: 1, name: 'a' })).toEqual({ _id: 1, name: 'a' });
      expect(await model().countDocuments()).toBe(1);
    });

    it('still fails when the stored document with that id is another one', async () => {
      await createWithSequenceId(model(), { _id: 1, name: 'a' });
      await expect(createWithSequenceId(model(), { _id: 1, name: 'b' })).rejects.toMatchObject({ code: 11000 });
    });

    it('with renumber, takes a fresh id when another document holds the id', async () => {
      await createWithSequenceId(model(), { _id: 1, name: 'a' });
      expect(await createWithSequenceId(model(), { _id: 1, name: 'b' }, async () => 2)).toEqual({ _id: 2, name: 'b' });
      expect(await model().countDocuments()).toBe(2);
    });

    it('still fails on a duplicate of another unique field', async () => {
      await model().createIndexes();
      await createWithSequenceId(model(), { _id: 1, name: 'a' });
      await expect(createWithSequenceId(model(), { _id: 2, name: 'a' })).rejects.toMatchObject({ code: 11000 });
    });
  });
});
