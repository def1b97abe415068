import { insertTokenField, requiredFields } from '@lib/mongo';
import { Schema, type Connection, type Model } from 'mongoose';

export interface ArticleDoc {
  _id: number;
  title: string;
  content: string;
  created_at: Date;
  updated_at: Date;
}

// _id is the article id (from the `articles` counter); lists sort on it, so no extra index.
const articleSchema = new Schema<ArticleDoc>(
  { ...requiredFields({ _id: Number, title: String, content: String }), ...insertTokenField },
  { versionKey: false, timestamps: { createdAt: 'created_at', updatedAt: 'updated_at' } },
);

export function articleModel(connection: Connection): Model<ArticleDoc> {
  return connection.models.Article ?? connection.model<ArticleDoc>('Article', articleSchema, 'articles');
}
