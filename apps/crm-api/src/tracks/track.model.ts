import { insertTokenField } from '@lib/mongo';
import { Schema, type Connection, type Model } from 'mongoose';

/** The track every account has; it cannot be created, renamed, changed or deleted through the API. */
export const DEFAULT_TRACK_NAME = 'Default';
export const DEFAULT_MILESTONES = ['Open', 'New', 'Prospect', 'Proposal', 'Won', 'Lost'];

export interface TrackDoc {
  /** Never 0 or 1: D9/D10 give those values of `pipeline_id` a meaning of their own. */
  _id: number;
  account: number;
  name: string;
  /** In track order; the states of the deals placed in the track. */
  milestones: string[];
  created_time: number;
  /** Bumped by every change, so a change can be undone only if nothing else changed the track since. */
  rev: number;
}

const trackSchema = new Schema<TrackDoc>(
  {
    _id: { type: Number, required: true },
    ...insertTokenField,
    account: { type: Number, required: true },
    name: { type: String, required: true },
    milestones: { type: [String], required: true },
    created_time: { type: Number, required: true },
    rev: { type: Number, default: 0 },
  },
  { versionKey: false },
);
trackSchema.index({ account: 1, name: 1 }, { unique: true }); // names unique per account; the Default track by name
trackSchema.index({ account: 1, _id: 1 }); // K1 list in id order

export function trackModel(connection: Connection): Model<TrackDoc> {
  return connection.models.Track ?? connection.model<TrackDoc>('Track', trackSchema, 'tracks');
}
