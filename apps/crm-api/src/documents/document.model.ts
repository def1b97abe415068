import { insertTokenField } from '@lib/mongo';
import { Schema, type Connection, type Model } from 'mongoose';

/** The original's document kinds (Document.DocType): an uploaded or linked file, or a document sent from a template. */
export const DOC_TYPES = ['ATTACHMENT', 'SENDDOC'] as const;
export type DocType = (typeof DOC_TYPES)[number];
/** Where the linked file lives (the original's NetworkType); OTHER for any other link. */
export const NETWORK_TYPES = ['S3', 'GOOGLE', 'DROPBOX', 'BOX', 'OTHER'] as const;
export type NetworkType = (typeof NETWORK_TYPES)[number];

/** A document: metadata and a link to the file (the file itself is never stored here). */
export interface DocumentDoc {
  _id: number;
  account: number;
  name: string;
  url: string;
  doc_type: DocType;
  network_type: NetworkType;
  extension?: string;
  /** Bytes, as the client states it (not checked: the file is elsewhere). */
  size?: number;
  /** Ids of related contacts (`contact_ids` in requests and responses, as strings). */
  contacts: number[];
  /** Ids of related deals (`deal_ids`, as strings). */
  deals: number[];
  /** The user who added it (`owner_id`). */
  owner: number;
  uploaded_time: number;
  updated_time: number;
}

const documentSchema = new Schema<DocumentDoc>(
  {
    _id: { type: Number, required: true },
    ...insertTokenField,
    account: { type: Number, required: true },
    name: { type: String, required: true },
    url: { type: String, required: true },
    doc_type: { type: String, required: true },
    network_type: { type: String, required: true },
    extension: String,
    size: Number,
    contacts: { type: [Number], default: [] },
    deals: { type: [Number], default: [] },
    owner: { type: Number, required: true },
    uploaded_time: { type: Number, required: true },
    updated_time: { type: Number, required: true },
  },
  { versionKey: false },
);
documentSchema.index({ account: 1, contacts: 1, uploaded_time: 1, _id: 1 }); // documents of a contact (oldest first); contact deletion clean-up
documentSchema.index({ account: 1, deals: 1 }); // deal deletion clean-up
documentSchema.index({ account: 1, owner: 1 }); // documents a user owns (user removal)

export function documentModel(connection: Connection): Model<DocumentDoc> {
  return connection.models.Document ?? connection.model<DocumentDoc>('Document', documentSchema, 'documents');
}
