import { insertTokenField } from '@lib/mongo';
import { Schema, type Connection, type Model } from 'mongoose';

export interface NoteDoc {
  _id: number;
  account: number;
  subject: string;
  description: string;
  /** Ids of related contacts (`contacts` in responses, as strings). */
  contacts: number[];
  /** Ids of related deals (`deal_ids` in responses, as strings). */
  deals: number[];
  /** The owning user (`owner_id` in requests and responses); absent on notes stored before notes had owners. */
  owner?: number;
  created_time: number;
  updated_time: number;
}

const noteSchema = new Schema<NoteDoc>(
  {
    _id: { type: Number, required: true },
    ...insertTokenField,
    account: { type: Number, required: true },
    subject: { type: String, required: true },
    description: { type: String, required: true },
    contacts: { type: [Number], default: [] },
    deals: { type: [Number], default: [] },
    owner: Number,
    created_time: { type: Number, required: true },
    updated_time: { type: Number, required: true },
  },
  { versionKey: false },
);
noteSchema.index({ account: 1, contacts: 1, created_time: 1, _id: 1 }); // N3 notes of a contact; contact deletion clean-up
noteSchema.index({ account: 1, deals: 1, created_time: 1, _id: 1 }); // notes of a deal
noteSchema.index({ account: 1, owner: 1 }); // notes a user owns (user removal)

export function noteModel(connection: Connection): Model<NoteDoc> {
  return connection.models.Note ?? connection.model<NoteDoc>('Note', noteSchema, 'notes');
}
