import { insertTokenField } from '@lib/mongo';
import { Schema, type Connection, type Model } from 'mongoose';
import type { ArticleSearch } from './search/search-fields';

export interface ArticleDoc {
  /** From the `articles` counter. */
  _id: number;
  /** Canonical URL: the deduplication key. */
  url: string;
  title: string;
  summary: string;
  /** Publisher id and name at the time of the first fetch. */
  source: string;
  source_name: string;
  published_at: Date;
  /** ASX codes of the companies the article mentions. */
  companies: string[];
  fetched_at: Date;
  /** The link's host and its parent domains of two labels or more (`www.abc.net.au`, `abc.net.au`, `net.au`). */
  domains?: string[];
  /** ISO 639-1 code: its publisher's language (publishers file). */
  language?: string;
  /** What search reads (search/search-fields.ts); absent on articles stored before search until the next sync indexes them. */
  search?: ArticleSearch;
}

const searchSchema = new Schema<ArticleSearch>(
  {
    v: { type: Number, required: true },
    terms: { type: [String], default: undefined },
    title: String,
    summary: String,
    content: String,
  },
  { _id: false },
);

const articleSchema = new Schema<ArticleDoc>(
  {
    _id: { type: Number, required: true },
    ...insertTokenField,
    url: { type: String, required: true },
    title: { type: String, required: true },
    summary: { type: String, default: '' },
    source: { type: String, required: true },
    source_name: { type: String, required: true },
    published_at: { type: Date, required: true },
    companies: { type: [String], default: [] },
    fetched_at: { type: Date, required: true },
    domains: { type: [String], default: undefined },
    language: String,
    search: { type: searchSchema, default: undefined },
  },
  { versionKey: false },
);
// Deduplication: one article per canonical URL, whatever the feed or the fetch.
articleSchema.index({ url: 1 }, { unique: true });
// GET /news pages by publication time with the id as tie-breaker, in both directions.
articleSchema.index({ published_at: -1, _id: -1 });
// GET /news?company=… and ?source=… (also the per-source article count).
articleSchema.index({ companies: 1, published_at: -1, _id: -1 });
articleSchema.index({ source: 1, published_at: -1, _id: -1 });
// GET /news?q=…: one key per distinct word of an article (multikey), in page order; also the
// document frequencies of sort=relevancy (a count per word).
articleSchema.index({ 'search.terms': 1, published_at: -1, _id: -1 });
// GET /news?domains=… and ?language=…
articleSchema.index({ domains: 1, published_at: -1, _id: -1 });
articleSchema.index({ language: 1, published_at: -1, _id: -1 });
// The sync's backfill: articles not yet indexed for search (search-backfill.ts).
articleSchema.index({ 'search.v': 1 });

export function articleModel(connection: Connection): Model<ArticleDoc> {
  return connection.models.Article ?? connection.model<ArticleDoc>('Article', articleSchema, 'articles');
}
