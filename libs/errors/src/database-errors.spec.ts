import { MongoBulkWriteError, MongoClientClosedError, MongoNetworkError, MongoNetworkTimeoutError, MongoNotConnectedError, MongoOperationTimeoutError, MongoServerClosedError, MongoServerError, MongoServerSelectionError, MongoTopologyClosedError } from 'mongodb';
import mongoose from 'mongoose';
import { toHttpError } from './normalize';

type PoolErrorClass = new (pool: never, message?: string) => Error;
// not exported from the package's index (nor typed): the classes the pool really throws
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { PoolClearedError, PoolClearedOnNetworkError, PoolClosedError, WaitQueueTimeoutError } = require('mongodb/lib/cmap/errors') as Record<
  'PoolClearedError' | 'PoolClearedOnNetworkError' | 'PoolClosedError',
  PoolErrorClass
> & { WaitQueueTimeoutError: new (message: string, address: string) => Error };

const pool = { address: '10.0.0.1:27017', serverError: new MongoNetworkError('connect ECONNREFUSED 10.0.0.1:27017') } as never;
const serverError = (code: number, codeName: string) => new MongoServerError({ message: `${codeName} at 10.0.0.1`, code, codeName });

describe('driver errors of a database that is gone, stalled or timed out', () => {
  const unavailable: Array<[string, Error]> = [
    ['MongoNetworkError', new MongoNetworkError('connect ECONNREFUSED 10.0.0.1:27017')],
    ['MongoNetworkTimeoutError', new MongoNetworkTimeoutError('connection 7 to 10.0.0.1:27017 timed out')],
    ['MongoServerSelectionError', new MongoServerSelectionError('connection <monitor> to 10.0.0.1:27017 timed out', { type: 'Unknown', servers: new Map() } as never)],
    ['MongooseServerSelectionError', new mongoose.Error.MongooseServerSelectionError('connect ECONNREFUSED 10.0.0.1:27017')],
    ['PoolClearedError', new PoolClearedError(pool)],
    ['PoolClearedOnNetworkError', new PoolClearedOnNetworkError(pool)],
    ['PoolClosedError', new PoolClosedError(pool)],
    ['WaitQueueTimeoutError', new WaitQueueTimeoutError('Timed out while checking out a connection from connection pool', '10.0.0.1:27017')],
    ['MongoOperationTimeoutError', new MongoOperationTimeoutError('Timed out during operation execution')],
    ['MongoNotConnectedError', new MongoNotConnectedError('Client must be connected')],
    ['MongoTopologyClosedError', new MongoTopologyClosedError()],
    ['MongoServerClosedError', new MongoServerClosedError()],
    ['MongoClientClosedError', new MongoClientClosedError()],
    ['MaxTimeMSExpired (code 50)', serverError(50, 'MaxTimeMSExpired')],
    ['ExceededTimeLimit (code 262)', serverError(262, 'ExceededTimeLimit')],
    ['NotWritablePrimary (code 10107)', serverError(10107, 'NotWritablePrimary')],
    ['ShutdownInProgress (code 91)', serverError(91, 'ShutdownInProgress')],
    ['PrimarySteppedDown (code 189)', serverError(189, 'PrimarySteppedDown')],
    ['InterruptedDueToReplStateChange (code 11602)', serverError(11602, 'InterruptedDueToReplStateChange')],
    ['an error whose cause is a network error', new Error('insert failed', { cause: new MongoNetworkTimeoutError('timed out') })],
    // what insertMany throws when no pooled connection came in time (seen on a webhook's outbox insert while the database was away)
    ['a MongoBulkWriteError holding a WaitQueueTimeoutError', new MongoBulkWriteError(new WaitQueueTimeoutError('Timed out while checking out a connection from connection pool', '10.0.0.1:27017') as never, {} as never)],
  ];

  it.each(unavailable)('%s answers 503 database_unavailable with Retry-After and no driver text', (_name, err) => {
    const mapped = toHttpError(err);
    expect({ status: mapped?.status, code: mapped?.code, message: mapped?.message, headers: mapped?.headers }).toEqual({
      status: 503,
      code: 'database_unavailable',
      message: 'The database is unavailable; try again shortly',
      headers: { 'Retry-After': '5' },
    });
  });

  it('leaves other server errors (duplicate key, bad value) and plain errors with code 50 as unknown (500)', () => {
    expect(toHttpError(serverError(11000, 'DuplicateKey'))).toBeNull();
    expect(toHttpError(serverError(2, 'BadValue'))).toBeNull();
    expect(toHttpError(Object.assign(new Error('not from the driver'), { code: 50 }))).toBeNull();
    expect(toHttpError(new Error('wrapper', { cause: new Error('plain') }))).toBeNull();
  });
});
