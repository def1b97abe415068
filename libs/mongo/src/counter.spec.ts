import { useTestDatabase } from '@lib/testing';
import { Schema } from 'mongoose';
import { idSequence, INSERT_TOKEN, insertTokenField, insertWithSequenceId, MAX_ID_ATTEMPTS, nextSequence } from './counter';

/** Stored documents without their insert tokens (compared where the token's value is not the point). */
const untokened = (docs: Record<string, unknown>[]) => docs.map(({ [INSERT_TOKEN]: _token, ...doc }) => doc);

describe('nextSequence', () => {
  const db = useTestDatabase();
  beforeEach(() => db.clear());

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
    const counters = db.connection.models.Counter.collection;
    const spy = jest.spyOn(counters, 'findOneAndUpdate').mockImplementationOnce(() => {
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

  describe('idSequence', () => {
    const seq = () => db.connection.collection('counters').findOne({ _id: 'blocked' as never });

    it('adds the offset to each id', async () => {
      const ids = idSequence(db.connection, 'offset', { offset: 1 });
      expect([await ids.next(), await ids.next()]).toEqual([2, 3]);
    });

    it('skipPast moves the counter past a stored id; it never moves it back', async () => {
      const ids = idSequence(db.connection, 'blocked');
      expect(await ids.next()).toBe(1);
      await ids.skipPast(40);
      expect(await ids.next()).toBe(41);
      await ids.skipPast(10);
      expect(await seq()).toEqual({ _id: 'blocked', seq: 41 });
    });
  });

  describe('insertWithSequenceId', () => {
    const model = () =>
      db.connection.models.Thing ?? db.connection.model('Thing', new Schema({ _id: Number, ...insertTokenField, name: { type: String, unique: true } }, { versionKey: false }), 'things');
    const Twin = () =>
      db.connection.models.Twin ?? db.connection.model('Twin', new Schema({ _id: Number, ...insertTokenField, name: String }, { versionKey: false }), 'twins');
    const Plain = () => db.connection.models.Plain ?? db.connection.model('Plain', new Schema({ _id: Number, name: String }, { versionKey: false }), 'plain');
    const ids = () => idSequence(db.connection, 'things');

    it('inserts under the next id of the sequence', async () => {
      expect(await insertWithSequenceId(model(), ids(), (id) => ({ _id: id, name: 'a' }))).toEqual({ _id: 1, name: 'a' });
      expect(await insertWithSequenceId(model(), ids(), (id) => ({ _id: id, name: 'b' }))).toEqual({ _id: 2, name: 'b' });
      expect(untokened(await model().find().sort({ _id: 1 }).lean())).toEqual([{ _id: 1, name: 'a' }, { _id: 2, name: 'b' }]);
    });

    it('stores a fresh insert token with each document, and answers the document without it', async () => {
      await insertWithSequenceId(model(), ids(), (id) => ({ _id: id, name: 'a' }));
      await insertWithSequenceId(model(), ids(), (id) => ({ _id: id, name: 'b' }));
      const raw = await db.connection.collection('things').find().sort({ _id: 1 }).toArray();
      const tokens = raw.map((doc) => doc[INSERT_TOKEN]);
      expect(tokens).toEqual([expect.stringMatching(/^[\w-]{16}$/), expect.stringMatching(/^[\w-]{16}$/)]);
      expect(tokens[0]).not.toBe(tokens[1]);
      expect(raw).toEqual([{ _id: 1, name: 'a', [INSERT_TOKEN]: tokens[0] }, { _id: 2, name: 'b', [INSERT_TOKEN]: tokens[1] }]);
    });

    it('answers with the stored document when the duplicate carries its own insert token (a retried write)', async () => {
      await model().createIndexes();
      const things = db.connection.collection('things');
      // the first write lands, its reply is lost, and the retry reports the duplicate _id
      const insert = jest.fn(async (doc: { _id: number; name: string }) => {
        await things.insertOne({ ...doc } as never);
        await things.insertOne({ ...doc } as never);
        return doc;
      });
      expect(await insertWithSequenceId(model(), ids(), (id) => ({ _id: id, name: 'a' }), { insert })).toEqual({ _id: 1, name: 'a' });
      expect(insert).toHaveBeenCalledTimes(1);
      expect(untokened(await model().find().lean())).toEqual([{ _id: 1, name: 'a' }]);
    });

    it.each([
      ['another insert token', { [INSERT_TOKEN]: 'someone-else' }],
      ['no insert token (stored before tokens)', {}],
    ])('treats a stored document with equal content and %s as another record when the counter repeats its id', async (_case, token) => {
      await Twin().create({ _id: 1, name: 'same', ...token });
      const doc = await insertWithSequenceId(Twin(), ids(), (id) => ({ _id: id, name: 'same' }));
      expect(doc).toEqual({ _id: 2, name: 'same' });
      expect(untokened(await Twin().find().sort({ _id: 1 }).lean())).toEqual([{ _id: 1, name: 'same' }, { _id: 2, name: 'same' }]);
    });

    it('refuses a model whose schema does not declare the insert token, writing nothing', async () => {
      await expect(insertWithSequenceId(Plain(), ids(), (id) => ({ _id: id, name: 'a' }))).rejects.toThrow('must declare insertTokenField');
      expect(await Plain().countDocuments()).toBe(0);
    });

    it('when another document holds the id (counter behind the data), moves the counter past the stored ids, undoes the attempt and retries', async () => {
      await model().create([{ _id: 1, name: 'old1' }, { _id: 7, name: 'old7' }]);
      const abandoned: number[] = [];
      const built: number[] = [];
      const doc = await insertWithSequenceId(
        model(),
        ids(),
        (id) => {
          built.push(id);
          return { _id: id, name: 'new' };
        },
        { abandon: async (d) => void abandoned.push(d._id) },
      );
      expect(doc).toEqual({ _id: 8, name: 'new' });
      expect(built).toEqual([1, 8]);
      expect(abandoned).toEqual([1]);
      expect(untokened(await model().find().sort({ _id: 1 }).lean())).toEqual([
        { _id: 1, name: 'old1' },
        { _id: 7, name: 'old7' },
        { _id: 8, name: 'new' },
      ]);
      expect(await nextSequence(db.connection, 'things')).toBe(9);
    });

    it(`gives up after ${MAX_ID_ATTEMPTS} taken ids, with the duplicate key error`, async () => {
      await model().create({ _id: 1, name: 'old' });
      const stuck = { next: jest.fn(async () => 1), taken: jest.fn(async () => undefined) };
      const abandon = jest.fn(async () => undefined);
      await expect(insertWithSequenceId(model(), stuck, (id) => ({ _id: id, name: 'new' }), { abandon })).rejects.toMatchObject({ code: 11000 });
      expect(stuck.next).toHaveBeenCalledTimes(MAX_ID_ATTEMPTS);
      expect(abandon).toHaveBeenCalledTimes(MAX_ID_ATTEMPTS);
      expect(await model().countDocuments()).toBe(1);
    });

    it('passes on a duplicate of another unique field without retrying', async () => {
      await model().createIndexes();
      await model().create({ _id: 100, name: 'a' });
      const abandon = jest.fn(async () => undefined);
      await expect(insertWithSequenceId(model(), ids(), (id) => ({ _id: id, name: 'a' }), { abandon })).rejects.toMatchObject({ code: 11000 });
      expect(abandon).not.toHaveBeenCalled();
      expect(await model().countDocuments()).toBe(1);
    });
  });
});
