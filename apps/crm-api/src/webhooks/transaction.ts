import { setTimeout as sleep } from 'node:timers/promises';
import { databaseUnavailable } from '@lib/errors';
import type { ClientSession, Connection } from 'mongoose';

/**
 * How long a transaction that keeps meeting another one on the same documents (MongoDB aborts one
 * of two: TransientTransactionError) is tried again, and how long a commit whose outcome the
 * driver does not know is retried: well within a request's time bound.
 */
export const TRANSACTION_RETRY_MS = 2_000;

const hasLabel = (err: unknown, label: string) => (err as { hasErrorLabel?: (l: string) => boolean }).hasErrorLabel?.(label) === true;

/**
 * Runs `work` in a MongoDB transaction and commits it: every write made with the session is
 * stored with the others or not at all. A transaction aborted by a conflict runs again (short
 * random waits, within TRANSACTION_RETRY_MS; then a 503), so `work` must be safe to run more than
 * once (reads and writes through the session only). Writes use the majority write concern.
 */
export async function inTransaction<T>(connection: Connection, work: (session: ClientSession) => Promise<T>): Promise<T> {
  const session = await connection.startSession();
  const deadline = Date.now() + TRANSACTION_RETRY_MS;
  try {
    for (let attempt = 1; ; attempt++) {
      session.startTransaction({ readConcern: { level: 'snapshot' }, writeConcern: { w: 'majority' } });
      try {
        const result = await work(session);
        await commit(session, deadline);
        return result;
      } catch (err) {
        if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
        if (hasLabel(err, 'TransientTransactionError') && Date.now() < deadline) {
          await sleep(Math.random() * Math.min(100, 5 * 2 ** attempt));
          continue;
        }
        if (hasLabel(err, 'TransientTransactionError')) throw databaseUnavailable();
        throw err;
      }
    }
  } finally {
    await session.endSession().catch(() => undefined);
  }
}

/** Commits, retrying while the outcome is unknown (the driver makes a retried commit safe). */
async function commit(session: ClientSession, deadline: number): Promise<void> {
  for (;;) {
    try {
      await session.commitTransaction();
      return;
    } catch (err) {
      if (!hasLabel(err, 'UnknownTransactionCommitResult') || Date.now() >= deadline) throw err;
    }
  }
}

/**
 * Checks at start that the database runs transactions (a replica set, a sharded cluster, or the
 * embedded server): a standalone mongod does not, and every write of an account with a webhook
 * would fail. Throws an Error saying so (the process stops with it); a database that cannot be
 * reached throws what the driver threw (start-up tries again).
 */
export async function assertTransactions(connection: Connection, read: (session: ClientSession) => Promise<unknown>): Promise<void> {
  try {
    await inTransaction(connection, read);
  } catch (err) {
    if ((err as { code?: number }).code !== 20) throw err; // IllegalOperation: "Transaction numbers are only allowed on a replica set member or mongos"
    throw new Error('webhooks record each event in the transaction of its change: MongoDB must be a replica set (a single-member one will do, as docker/compose.yaml runs it); this server is a standalone mongod');
  }
}
