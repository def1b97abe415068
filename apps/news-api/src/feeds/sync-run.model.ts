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
  {
    _id: { type: String, required: true },
    run: { type: String, required: true },
    started_at: { type: Date, required: true },
    report: { type: Schema.Types.Mixed, required: true },
  },
  { versionKey: false },
);

export function syncRunModel(connection: Connection): Model<SyncRunDoc> {
  return connection.models.SyncRun ?? connection.model<SyncRunDoc>('SyncRun', syncRunSchema, 'sync_runs');
}
