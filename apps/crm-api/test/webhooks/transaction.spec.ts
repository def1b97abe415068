import { useTestDatabase } from '@lib/testing';
import { assertTransactions, inTransaction } from '../../src/webhooks/transaction';

describe('transactions', () => {
  const db = useTestDatabase({ ownServer: true }); // its transactions must not hold the shared server's write lock

  it('stores every write of the work or none', async () => {
    const docs = db.connection.db!.collection<{ _id: number; v: number }>('txn_docs');
    await inTransaction(db.connection, async (session) => {
      await docs.insertOne({ _id: 1, v: 1 }, { session });
      await docs.insertOne({ _id: 2, v: 1 }, { session });
    });
    await expect(
      inTransaction(db.connection, async (session) => {
        await docs.updateOne({ _id: 1 }, { $set: { v: 2 } }, { session });
        throw new Error('after the first write');
      }),
    ).rejects.toThrow('after the first write');
    expect(await docs.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, v: 1 },
      { _id: 2, v: 1 },
    ]);
  });

  it('checks at start that the database runs transactions, naming the fix when it does not', async () => {
    await expect(assertTransactions(db.connection, (session) => db.connection.db!.collection('x').findOne({}, { session }))).resolves.toBeUndefined();
    const standalone = () => Promise.reject(Object.assign(new Error('Transaction numbers are only allowed on a replica set member or mongos'), { code: 20 }));
    await expect(assertTransactions(db.connection, standalone)).rejects.toThrow(/MongoDB must be a replica set \(a single-member one will do, as docker\/compose\.yaml runs it\); this server is a standalone mongod/);
    const other = () => Promise.reject(Object.assign(new Error('not reachable'), { code: 6 }));
    await expect(assertTransactions(db.connection, other)).rejects.toThrow('not reachable');
  });
});
