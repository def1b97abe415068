import { leaseHolder, tryLease, type HeldLease } from '@lib/mongo';
import type { Connection } from 'mongoose';
import type { SyncReport } from './feed-sync';
import { syncRunModel, type SyncRunDoc } from './sync-run.model';

/** The lease that makes a sync run on one replica of the cluster at a time. */
const SYNC_LEASE = 'feed-sync';
const LAST_RUN = 'last';

/** The sync's lease and the record of the last sync that ran to its end (collections `leases`, `sync_runs`). */
export function syncRunRepository(connection: Connection) {
  const SyncRun = syncRunModel(connection);

  return {
    /** The sync lease when it is free or expired (renewed until released), else undefined. */
    tryLease: (ttlMs: number): Promise<HeldLease | undefined> => tryLease(connection, SYNC_LEASE, { ttlMs }),
    /** The token of the run holding the lease, if any. */
    leaseHolder: () => leaseHolder(connection, SYNC_LEASE),
    last: () => SyncRun.findById(LAST_RUN).lean<SyncRunDoc>(),
    lastStartedAt: async () => (await SyncRun.findById(LAST_RUN, { started_at: 1 }).lean<Pick<SyncRunDoc, 'started_at'>>())?.started_at,
    recordLast: (run: string, startedAt: Date, report: SyncReport) => SyncRun.updateOne({ _id: LAST_RUN }, { $set: { run, started_at: startedAt, report } }, { upsert: true }),
  };
}

export type SyncRunRepository = ReturnType<typeof syncRunRepository>;
