import { insertTokenField } from '@lib/mongo';
import { Schema, type Connection, type Model } from 'mongoose';

export interface CustomDatum {
  name: string;
  value: string;
}

export interface DealDoc {
  _id: number;
  account: number;
  name: string;
  description: string;
  expected_value: number;
  /** The track (`tracks._id`) the deal is placed in. */
  pipeline_id: number;
  /** One of the track's milestones, exactly as the track spells it. */
  milestone: string;
  probability: number;
  /** Epoch seconds. */
  close_date: number;
  /** The owning user (`domain_users._id`). */
  owner_id: number;
  /** Related contacts of the account; a deleted contact is pulled from every deal. */
  contact_ids: number[];
  custom_data: CustomDatum[];
  /** A DEAL_SOURCE category of the account (`categories._id`); 0 or absent (deals stored before): none. */
  deal_source_id?: number;
  created_time: number;
  updated_time: number;
}

const dealSchema = new Schema<DealDoc>(
  {
    _id: { type: Number, required: true },
    ...insertTokenField,
    account: { type: Number, required: true },
    name: { type: String, required: true },
    description: { type: String, default: '' },
    expected_value: { type: Number, required: true },
    pipeline_id: { type: Number, required: true },
    milestone: { type: String, required: true },
    probability: { type: Number, default: 0 },
    close_date: { type: Number, required: true },
    owner_id: { type: Number, required: true },
    contact_ids: { type: [Number], default: [] },
    custom_data: { type: [new Schema<CustomDatum>({ name: { type: String, required: true }, value: { type: String, default: '' } }, { _id: false })], default: [] },
    deal_source_id: { type: Number, default: 0 },
    created_time: { type: Number, required: true },
    updated_time: { type: Number, required: true },
  },
  { versionKey: false },
);
dealSchema.index({ account: 1, deal_source_id: 1 }); // deals of a deleted deal source (their source cleared)
dealSchema.index({ account: 1, created_time: 1, _id: 1 }); // D1 list, count
dealSchema.index({ account: 1, updated_time: 1, _id: 1 }); // D1 by global_sort_key (-)updated_time
dealSchema.index({ account: 1, pipeline_id: 1, updated_time: 1, _id: 1 }); // D10 by (-)updated_time
dealSchema.index({ account: 1, pipeline_id: 1, created_time: 1, _id: 1 }); // D8/D9 milestone views, D10 by track, deals left in a track (K3/K4)
dealSchema.index({ account: 1, contact_ids: 1, created_time: 1 }); // D11 deals of a contact; pulling a deleted contact
dealSchema.index({ account: 1, owner_id: 1, created_time: 1 }); // D12 my deals; deals a user owns (user removal)

/** The `deals` collection: documents `{ _id: <number>, account: <number>, ... }` (deal notes count them by both). */
export function dealModel(connection: Connection): Model<DealDoc> {
  return connection.models.Deal ?? connection.model<DealDoc>('Deal', dealSchema, 'deals');
}
