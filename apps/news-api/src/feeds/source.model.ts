import { Schema, type Connection, type Model } from 'mongoose';

/** What the last fetches of one publisher's feeds did; shown by GET /sources. */
export interface SourceDoc {
  /** The publisher id of the feeds file. */
  _id: string;
  name: string;
  last_success_at?: Date;
  last_error_at?: Date;
  last_error?: string;
  article_count: number;
}

const sourceSchema = new Schema<SourceDoc>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    last_success_at: Date,
    last_error_at: Date,
    last_error: String,
    article_count: { type: Number, default: 0 },
  },
  { versionKey: false },
);

export function sourceModel(connection: Connection): Model<SourceDoc> {
  return connection.models.Source ?? connection.model<SourceDoc>('Source', sourceSchema, 'sources');
}
