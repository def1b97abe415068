import type { z } from '@lib/validation';
import type { CustomFieldDoc } from './custom-field.model';
import type { customFieldOutput } from './custom-field.outputs';

/** The original's search key: the label without spaces or signs, typed by a suffix for dates and numbers. */
function searchKey(doc: CustomFieldDoc): string {
  const base = doc.field_label.replace(/[^\p{L}\p{N}_]/gu, '');
  if (doc.field_type === 'DATE') return `${base}_time_epoch`;
  if (doc.field_type === 'NUMBER') return `${base}_number`;
  return base;
}

/** The wire shape of a definition (JSON and XML). */
export function customFieldView(doc: CustomFieldDoc): z.input<typeof customFieldOutput> {
  return {
    id: doc._id,
    field_type: doc.field_type,
    field_label: doc.field_label,
    ...(doc.field_description !== undefined && { field_description: doc.field_description }),
    ...(doc.field_data !== undefined && { field_data: doc.field_data }),
    is_required: doc.is_required,
    searchable: doc.searchable,
    ...(doc.searchable && { search_key: searchKey(doc) }),
    scope: doc.scope,
    position: doc.position,
  };
}
