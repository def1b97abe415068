import { xmlRoot } from '@lib/routing';
import { pathId, queryEnum, text, z } from '@lib/validation';
import { idField, intField } from '../input/fields';
import { FIELD_SCOPES, FIELD_TYPES } from './custom-field.model';

/**
 * Bounds of the definitions (apps/crm-api/README.md, "Custom fields"; docs/RESILIENCE.md, "Bounds").
 * A label is the name of a contact property or deal custom datum, which are at most 100 characters.
 */
export const FIELD_LABEL_MAX = 100;
export const FIELD_DESCRIPTION_MAX = 1_000;
export const FIELD_DATA_MAX = 5_000;
/** Options of a LIST, each at most LIST_OPTION_MAX characters. */
export const LIST_OPTIONS_MAX = 200;
export const LIST_OPTION_MAX = 100;
/** Definitions of one account, all scopes together. */
export const CUSTOM_FIELDS_MAX = 200;
export const POSITION_MAX = 1_000_000;

/** Shown in responses; accepted back (so a fetched definition can be sent unchanged) and ignored. */
const readOnly = z.unknown().optional();

/** The options of a LIST's `field_data` (`a;b;c`), trimmed. */
export const listOptions = (fieldData: string | undefined) => (fieldData ?? '').split(';').map((option) => option.trim());

const definition = {
  field_label: text({ max: FIELD_LABEL_MAX }).transform((label) => label.trim()),
  field_type: z.enum(FIELD_TYPES),
  field_description: z.string().max(FIELD_DESCRIPTION_MAX).optional(),
  field_data: z.string().max(FIELD_DATA_MAX).optional().meta({ description: 'LIST: the options separated by `;` (required); TEXTAREA: the rows shown; FORMULA: the formula (stored, not evaluated)' }),
  is_required: z.boolean().optional().meta({ description: 'Records of the scope must hold a value (default false)' }),
  searchable: z.boolean().optional().meta({ description: 'Found by GET /dev/api/search (default false)' }),
  scope: z.enum(FIELD_SCOPES).optional().meta({ description: 'Default CONTACT (PERSON is the same scope)' }),
  position: intField({ min: 0, max: POSITION_MAX }).optional().meta({ description: 'Order in the scope reads (default 0: first, in creation order)' }),
  search_key: readOnly,
};

function checkListData(field: { field_type: string; field_data?: string }, ctx: z.RefinementCtx) {
  if (field.field_type !== 'LIST') return;
  const options = listOptions(field.field_data);
  if (options.every((option) => option === '')) {
    ctx.addIssue({ code: 'custom', path: ['field_data'], message: 'a LIST needs its options, separated by ; (e.g. "Basic;Pro")' });
  } else if (options.length > LIST_OPTIONS_MAX) {
    ctx.addIssue({ code: 'custom', path: ['field_data'], message: `a LIST holds at most ${LIST_OPTIONS_MAX} options` });
  } else if (options.some((option) => option.length > LIST_OPTION_MAX)) {
    ctx.addIssue({ code: 'custom', path: ['field_data'], message: `each option of a LIST is at most ${LIST_OPTION_MAX} characters` });
  }
}

/** POST /dev/api/custom-fields: a new definition. */
export const customFieldInput = xmlRoot(z.strictObject({ id: idField.optional(), ...definition }).superRefine(checkListData), 'customFieldDef');
export type CustomFieldInput = z.output<typeof customFieldInput>;

/** PUT /dev/api/custom-fields: the whole definition, with its id (fields not sent take their defaults, as in the original). */
export const customFieldUpdate = xmlRoot(z.strictObject({ id: idField, ...definition }).superRefine(checkListData), 'customFieldDef');
export type CustomFieldUpdate = z.output<typeof customFieldUpdate>;

export const customFieldParams = z.strictObject({ id: pathId });
/** The scope reads: `scope` required (PERSON and CONTACT read the same definitions). */
export const scopeQuery = z.strictObject({ scope: queryEnum(FIELD_SCOPES) });

/** POST /dev/api/custom-fields/positions: `[{id, position}]` (what the original's web app sends). */
export const positionsInput = z
  .array(z.strictObject({ id: idField, position: intField({ min: 0, max: POSITION_MAX }) }))
  .min(1, 'must list at least one definition')
  .max(CUSTOM_FIELDS_MAX, `at most ${CUSTOM_FIELDS_MAX} definitions`);
