import { xmlRoot } from '@lib/routing';
import { pathId, queryEnum, z } from '@lib/validation';
import { idField, intField } from '../input/fields';
import { CATEGORY_TYPES } from './category.model';

/** Bounds (apps/crm-api/README.md, "Deal sources and categories"; docs/RESILIENCE.md, "Bounds"). */
export const CATEGORY_LABEL_MAX = 100;
/** Categories of one type in one account. */
export const CATEGORIES_PER_TYPE_MAX = 100;
export const CATEGORY_ORDER_MAX = 1_000_000;
/** The original's label rule (CategoriesUtil): a letter first, then letters, digits, `_`, `-` and spaces. */
export const CATEGORY_LABEL = /^\p{L}[\p{L}\p{N}_\- ]*$/u;

const readOnly = z.unknown().optional();

const label = z
  .string()
  .max(CATEGORY_LABEL_MAX, `must be at most ${CATEGORY_LABEL_MAX} characters`)
  .transform((value) => value.trim())
  .pipe(z.string().regex(CATEGORY_LABEL, 'must start with a letter and hold only letters, digits, _, - and spaces'));

const shown = { name: readOnly, created_time: readOnly, updated_time: readOnly };

/** POST /dev/api/categories. */
export const categoryInput = xmlRoot(
  z.strictObject({
    id: idField.optional(),
    label,
    entity_type: z.enum(CATEGORY_TYPES),
    order: intField({ min: 0, max: CATEGORY_ORDER_MAX }).optional().meta({ description: 'Place in the lists (default 0)' }),
    ...shown,
  }),
  'category',
);
export type CategoryInput = z.output<typeof categoryInput>;

/** PUT /dev/api/categories: relabel (and reorder) the category with the id. */
export const categoryUpdate = xmlRoot(
  z.strictObject({
    id: idField,
    label,
    entity_type: z.enum(CATEGORY_TYPES).optional().meta({ description: 'The category\'s own type when sent: a category does not change type' }),
    order: intField({ min: 0, max: CATEGORY_ORDER_MAX }).optional().meta({ description: 'Kept when not sent' }),
    ...shown,
  }),
  'category',
);
export type CategoryUpdate = z.output<typeof categoryUpdate>;

export const categoryQuery = z.strictObject({ entity_type: queryEnum(CATEGORY_TYPES).optional() });
export const categoryParams = z.strictObject({ id: pathId });
