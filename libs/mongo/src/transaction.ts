import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { databaseUnavailable } from '@lib/errors';
import type { ClientSession, Connection } from 'mongoose';

/**
 * How long a transaction that keeps meeting another one on the same documents (MongoDB aborts one
 * of two: TransientTransactionError) is tried again, and how long a commit whose outcome the
 * driver does not know is retried: well within a request's time bound.
 */
export const TRANSACTION_RETRY_MS = 2_000;

type SessionStore = AsyncLocalStorage<{ session?: ClientSession }>;
interface MongooseBase {
  transactionAsyncLocalStorage?: SessionStore;
  set(key: 'transactionAsyncLocalStorage', value: boolean): unknown;
}

/**
 * The session store mongoose reads (its `transactionAsyncLocalStorage` option): every mongoose
 * query, save and bulk write made inside `run` takes the session, and `driverCollection` adds it to
 * the driver calls. Turned on when a transaction first runs; outside a transaction it holds nothing.
 */
function sessionStore(connection: Connection): SessionStore {
  const base = connection.base as unknown as MongooseBase;
  if (!base.transactionAsyncLocalStorage) base.set('transactionAsyncLocalStorage', true);
  return base.transactionAsyncLocalStorage as SessionStore;
}

/**
 * Transactions running in this process. When the last one ends the store is disabled: on Node 20
 * an enabled AsyncLocalStorage keeps V8's promise hooks on for every promise of every request, and
 * the start-up check runs a transaction (crm-api's reads took 4-8 % more CPU: docs/BENCHMARKS.md,
 * "Issue 27, eighth round"; no difference measured on Node 22). The next transaction's `run`
 * enables it again. On Node 24 the store lives in V8's async context frames and disabling it
 * outside a transaction changes nothing.
 */
let running = 0;

/** The session of the transaction the caller runs in (see inTransaction), if any. */
export function ambientSession(base: unknown): ClientSession | undefined {
  return (base as MongooseBase).transactionAsyncLocalStorage?.getStore()?.session;
}

const hasLabel = (err: unknown, label: string) => (err as { hasErrorLabel?: (l: string) => boolean }).hasErrorLabel?.(label) === true;

/**
 * Runs `work` in a MongoDB transaction and commits it: every write `work` makes (through mongoose
 * or `driverCollection`, in its async context) is stored with the others or not at all; no session
 * is passed by hand. A transaction aborted by a conflict runs again (short random waits, within
 * TRANSACTION_RETRY_MS; then a 503), so `work` must be safe to run more than once. Writes use the
 * majority write concern. Work started inside that outlives `work` must not write. Called inside
 * another transaction, `work` runs in that one.
 */
export async function inTransaction<T>(connection: Connection, work: () => Promise<T>): Promise<T> {
  const store = sessionStore(connection);
  // called inside a transaction: `work` joins it (its writes commit or abort with the caller's, whose retries run it again)
  const outer = store.getStore()?.session;
  if (outer?.inTransaction()) return work();
  running++;
  try {
    return await runTransaction(connection, store, work);
  } finally {
    if (--running === 0) store.disable();
  }
}

async function runTransaction<T>(connection: Connection, store: SessionStore, work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + TRANSACTION_RETRY_MS;
  for (let attempt = 1; ; attempt++) {
    // a session per attempt, the failed ones' never reused (forgetServerSession)
    const session = await connection.startSession();
    let result: T;
    try {
      session.startTransaction({ readConcern: { level: 'snapshot' }, writeConcern: { w: 'majority' } });
      result = await store.run({ session }, work);
      await commit(session, deadline);
    } catch (err) {
      forgetServerSession(session);
      // not awaited: on a stalled database the abort would wait as long as the command that failed,
      // past the request's time bound; the server drops an unfinished transaction by itself
      void abandon(session);
      if (isTransient(err) && Date.now() < deadline) {
        await sleep(Math.random() * Math.min(100, 5 * 2 ** attempt));
        continue;
      }
      if (isTransient(err)) throw databaseUnavailable();
      throw err;
    }
    await session.endSession().catch(() => undefined);
    return result;
  }
}

/** Aborts a failed attempt's transaction (if still open) and ends its session, never throwing. */
async function abandon(session: ClientSession): Promise<void> {
  if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
  await session.endSession().catch(() => undefined);
}

/**
 * Keeps a failed attempt's server session (its `lsid`) out of the driver's pool: the abort may not
 * have reached the server (the driver ignores its errors), and a later session given the same
 * `lsid` would meet the attempt's transaction still open there (MongoDB aborts it for the newer
 * transaction number; the embedded server refuses the new one). The driver does the same after a
 * network error (`isDirty`).
 */
function forgetServerSession(session: ClientSession): void {
  try {
    const server = (session as unknown as { serverSession?: { isDirty?: boolean } }).serverSession;
    if (server) server.isDirty = true;
  } catch {
    // a session without a server session has none to keep out of the pool
  }
}

/**
 * NoSuchTransaction: the server aborted the transaction (its client's connection was lost, or it
 * ran too long), so a commit finds none. MongoDB labels it TransientTransactionError on a commit
 * without a write concern error (the transaction did not commit, and runs again); the embedded
 * server does not label it, so it is named here.
 */
const NO_SUCH_TRANSACTION = 251;
const isTransient = (err: unknown) => hasLabel(err, 'TransientTransactionError') || (err as { code?: unknown } | undefined)?.code === NO_SUCH_TRANSACTION;

/** Commits, retrying while the outcome is unknown (the driver makes a retried commit safe). */
async function commit(session: ClientSession, deadline: number): Promise<void> {
  for (;;) {
    try {
      await session.commitTransaction();
      return;
    } catch (err) {
      if (isTransient(err) || !hasLabel(err, 'UnknownTransactionCommitResult') || Date.now() >= deadline) throw err;
    }
  }
}

/**
 * Checks at start that the database runs transactions (a replica set, a sharded cluster, or the
 * embedded server): a standalone mongod does not. Throws an Error saying so, `need` first (the
 * process stops with it); a database that cannot be reached throws what the driver threw (start-up
 * tries again).
 */
export async function assertTransactions(connection: Connection, read: () => Promise<unknown>, need: string): Promise<void> {
  try {
    await inTransaction(connection, read);
  } catch (err) {
    if ((err as { code?: number }).code !== 20) throw err; // IllegalOperation: "Transaction numbers are only allowed on a replica set member or mongos"
    throw new Error(`${need}: MongoDB must be a replica set (a single-member one will do, as docker/compose.yaml runs it); this server is a standalone mongod`);
  }
}
