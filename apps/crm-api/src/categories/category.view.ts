import type { z } from '@lib/validation';
import type { CategoryDoc } from './category.model';
import type { categoryOutput } from './category.outputs';

/** The wire shape of a category (JSON and XML). */
export function categoryView(doc: CategoryDoc): z.input<typeof categoryOutput> {
  return { id: doc._id, name: doc.name, label: doc.label, entity_type: doc.entity_type, order: doc.order, created_time: doc.created_time, updated_time: doc.updated_time };
}
