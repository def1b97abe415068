import { useTestDatabase } from './testing';
import { nextSequence } from './counter';

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
});
