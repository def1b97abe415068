import { Schema } from 'mongoose';
import { useTestDatabase } from '@lib/testing';
import { driverCollection } from './driver-collection';
import { assertTransactions, inTransaction } from './transaction';

describe('transactions', () => {
  const db = useTestDatabase({ ownServer: true }); // its transactions must not hold the shared server's write lock
  const model = () => db.connection.models.TxnDoc ?? db.connection.model('TxnDoc', new Schema({ _id: Number, v: Number }, { versionKey: false }), 'txn_docs');

  it('stores every write of the work or none, mongoose and driver calls alike, without a session passed by hand', async () => {
    const Doc = model();
    const docs = driverCollection(Doc);
    await inTransaction(db.connection, async () => {
      await docs.insertOne({ _id: 1, v: 1 });
      await Doc.create({ _id: 2, v: 1 });
    });
    await expect(
      inTransaction(db.connection, async () => {
        await docs.updateOne({ _id: 1 }, { $set: { v: 2 } });
        await Doc.updateOne({ _id: 2 }, { $set: { v: 2 } });
        // the transaction's own writes are visible to its reads
        expect(await docs.findOne({ _id: 1 })).toEqual({ _id: 1, v: 2 });
        throw new Error('after the writes');
      }),
    ).rejects.toThrow('after the writes');
    expect(await docs.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, v: 1 },
      { _id: 2, v: 1 },
    ]);
  });

  it('a transaction started inside another joins it: its writes commit or are undone with the outer one', async () => {
    const docs = driverCollection(model());
    await docs.deleteMany({});
    await expect(
      inTransaction(db.connection, async () => {
        await docs.insertOne({ _id: 10, v: 1 });
        await inTransaction(db.connection, () => docs.insertOne({ _id: 11, v: 1 }));
        throw new Error('after the inner one');
      }),
    ).rejects.toThrow('after the inner one');
    expect(await docs.countDocuments()).toBe(0);
    await inTransaction(db.connection, async () => {
      await docs.insertOne({ _id: 10, v: 1 });
      await inTransaction(db.connection, () => docs.insertOne({ _id: 11, v: 1 }));
    });
    expect(await docs.countDocuments()).toBe(2);
  });

  it('a transaction that ends while another runs leaves the other its session: the later writes of the other are undone with it', async () => {
    // the last transaction to end disables the session store (transaction.ts), not one that ends
    // first; the one that ends first sends no command (on the embedded server a transaction holds
    // the write lock from its first command, so a second one that wrote would wait for the first)
    const docs = driverCollection(model());
    await docs.deleteMany({});
    let firstEnded!: () => void;
    const ended = new Promise<void>((resolve) => (firstEnded = resolve));
    const second = inTransaction(db.connection, async () => {
      await docs.insertOne({ _id: 30, v: 1 });
      await ended;
      await docs.insertOne({ _id: 31, v: 1 });
      await model().create({ _id: 32, v: 1 });
      throw new Error('after the first ended');
    });
    await expect(inTransaction(db.connection, async () => 'nothing written')).resolves.toBe('nothing written');
    firstEnded();
    await expect(second).rejects.toThrow('after the first ended');
    expect(await docs.countDocuments()).toBe(0);
    // the next one, after both, takes its session again
    await expect(
      inTransaction(db.connection, async () => {
        await docs.insertOne({ _id: 41, v: 1 });
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    expect(await docs.countDocuments()).toBe(0);
  });

  it('a commit refused with NoSuchTransaction (the server aborted the transaction) runs the work again, as MongoDB labels it transient', async () => {
    const docs = driverCollection(model());
    await docs.deleteMany({});
    const probe = db.connection.getClient().startSession();
    const sessions = Object.getPrototypeOf(probe) as { commitTransaction(): Promise<unknown> };
    await probe.endSession();
    const aborted = Object.assign(new Error('committransaction requires an active transaction'), { code: 251 });
    const spy = jest.spyOn(sessions, 'commitTransaction').mockRejectedValueOnce(aborted);
    let runs = 0;
    try {
      await inTransaction(db.connection, async () => {
        runs++;
        await docs.insertOne({ _id: 20 + runs, v: 1 });
      });
    } finally {
      spy.mockRestore();
    }
    expect(runs).toBe(2);
    expect(await docs.find().toArray()).toEqual([{ _id: 22, v: 1 }]);
  });

  it('checks at start that the database runs transactions, naming the fix when it does not', async () => {
    await expect(assertTransactions(db.connection, () => driverCollection(model()).findOne({}), 'x')).resolves.toBeUndefined();
    const standalone = () => Promise.reject(Object.assign(new Error('Transaction numbers are only allowed on a replica set member or mongos'), { code: 20 }));
    await expect(assertTransactions(db.connection, standalone, 'webhooks need it')).rejects.toThrow(
      /^webhooks need it: MongoDB must be a replica set \(a single-member one will do, as docker\/compose\.yaml runs it\); this server is a standalone mongod$/,
    );
    const other = () => Promise.reject(Object.assign(new Error('not reachable'), { code: 6 }));
    await expect(assertTransactions(db.connection, other, 'x')).rejects.toThrow('not reachable');
  });
});
