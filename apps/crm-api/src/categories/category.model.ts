import { insertTokenField } from '@lib/mongo';
import { Schema, type Connection, type Model } from 'mongoose';

/** The original's category kinds (Category.EntityType). */
export const CATEGORY_TYPES = ['CONTACT', 'DEAL', 'TASK', 'EVENT', 'CAMPAIGN', 'DOCUMENT', 'DEAL_LOST_REASON', 'DEAL_SOURCE'] as const;
export type CategoryType = (typeof CATEGORY_TYPES)[number];

export interface CategoryDoc {
  _id: number;
  account: number;
  label: string;
  /** The label upper-cased (the original's `name`): unique per account and type. */
  name: string;
  entity_type: CategoryType;
  order: number;
  /** The marker that a type's defaults were made once (never listed, never deleted), as the original's `Default_deal_source_`. */
  hidden?: boolean;
  created_time: number;
  updated_time: number;
}

const categorySchema = new Schema<CategoryDoc>(
  {
    _id: { type: Number, required: true },
    ...insertTokenField,
    account: { type: Number, required: true },
    label: { type: String, required: true },
    name: { type: String, required: true },
    entity_type: { type: String, required: true },
    order: { type: Number, default: 0 },
    hidden: Boolean,
    created_time: { type: Number, required: true },
    updated_time: { type: Number, required: true },
  },
  { versionKey: false },
);
// one name per type, whatever the races (create, rename, the defaults made by two replicas at once)
categorySchema.index({ account: 1, entity_type: 1, name: 1 }, { unique: true });
// GET /dev/api/categories?entity_type=: by order
categorySchema.index({ account: 1, entity_type: 1, order: 1, _id: 1 });

export function categoryModel(connection: Connection): Model<CategoryDoc> {
  return connection.models.Category ?? connection.model<CategoryDoc>('Category', categorySchema, 'categories');
}
