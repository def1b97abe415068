import { requiredFields } from '@lib/mongo';
import { Schema, type Connection, type Model } from 'mongoose';
import type { SyncReport } from './feed-sync';

/**
 * The last feed sync that ran to its end, on any replica (one document, `_id: 'last'`): the
 * schedule reads when it started to know whether a sync is due, and callers of POST /news/sync
 * that waited for another replica's run read its report here.
 */
export interface SyncRunDoc {
  _id: string;
  /** The lease token of the run (its id while it ran). */
  run: string;
  started_at: Date;
  report: SyncReport;
}

const syncRunSchema = new Schema<SyncRunDoc>(
  requiredFields({ _id: String, run: String, started_at: Date, report: Schema.Types.Mixed }),
  { versionKey: false },
);

export function syncRunModel(connection: Connection): Model<SyncRunDoc> {
  return connection.models.SyncRun ?? connection.model<SyncRunDoc>('SyncRun', syncRunSchema, 'sync_runs');
}
