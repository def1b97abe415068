import { insertTokenField } from '@lib/mongo';
import { Schema, type Connection, type Model } from 'mongoose';

/** The original's field types (CustomFieldDef.Type); FORMULA is stored, never evaluated. */
export const FIELD_TYPES = ['TEXT', 'DATE', 'LIST', 'CHECKBOX', 'TEXTAREA', 'NUMBER', 'FORMULA', 'CONTACT', 'COMPANY'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
/** The original's scopes (CustomFieldDef.SCOPE); PERSON and CONTACT are one scope. */
export const FIELD_SCOPES = ['PERSON_COMPANY', 'PERSON', 'COMPANY', 'CONTACT', 'DEAL', 'CASE'] as const;
export type FieldScope = (typeof FIELD_SCOPES)[number];

/** The scope a label is unique in: PERSON and CONTACT are the same records (persons). */
export const scopeGroupOf = (scope: FieldScope): string => (scope === 'PERSON' ? 'CONTACT' : scope);

export interface CustomFieldDoc {
  _id: number;
  account: number;
  field_label: string;
  /** The label trimmed and lower-cased: unique per account and scope group (the original compared labels ignoring case). */
  label_key: string;
  field_type: FieldType;
  field_description?: string;
  field_data?: string;
  is_required: boolean;
  searchable: boolean;
  scope: FieldScope;
  /** `scopeGroupOf(scope)`. */
  scope_group: string;
  position: number;
  created_time: number;
  updated_time: number;
}

const customFieldSchema = new Schema<CustomFieldDoc>(
  {
    _id: { type: Number, required: true },
    ...insertTokenField,
    account: { type: Number, required: true },
    field_label: { type: String, required: true },
    label_key: { type: String, required: true },
    field_type: { type: String, required: true },
    field_description: String,
    field_data: String,
    is_required: { type: Boolean, default: false },
    searchable: { type: Boolean, default: false },
    scope: { type: String, required: true },
    scope_group: { type: String, required: true },
    position: { type: Number, default: 0 },
    created_time: { type: Number, required: true },
    updated_time: { type: Number, required: true },
  },
  { versionKey: false },
);
// one label per scope group, whatever the races (create, rename): a duplicate is a duplicate-key error
customFieldSchema.index({ account: 1, scope_group: 1, label_key: 1 }, { unique: true });
// the scope reads and the record checks, in position order
customFieldSchema.index({ account: 1, scope_group: 1, position: 1, _id: 1 });
// the definitions of a label in every scope (the cross-scope type rule)
customFieldSchema.index({ account: 1, label_key: 1 });

export function customFieldModel(connection: Connection): Model<CustomFieldDoc> {
  return connection.models.CustomField ?? connection.model<CustomFieldDoc>('CustomField', customFieldSchema, 'custom_fields');
}
