import { parseSingleQuotedJson, z } from '@lib/validation';
import { intField } from '../input/fields';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_MAX, PAGE_SIZE_RULE, pageParams, sortParam } from '../paging';
import { DEAL_PAGE_DEFAULT } from '../deals/deal.schemas';

/** Rules per list (`rules`, `or_rules`) of one filter. */
export const MAX_RULES = 20;
/** Characters of `filterJson` (the JSON text). */
export const MAX_FILTER_JSON = 10_000;

const operand = z.union([z.string().max(1000), z.number()]);

/** One rule as the original writes it: `{"LHS": field, "CONDITION": how, "RHS": value, "RHS_NEW": second value of BETWEEN}`. */
export const filterRule = z.strictObject({
  LHS: z.string().min(1, 'must not be empty').max(100),
  CONDITION: z.string().min(1, 'must not be empty').max(50),
  RHS: operand.optional(),
  RHS_NEW: operand.optional(),
});
export type FilterRule = z.output<typeof filterRule>;

const rules = z.array(filterRule).max(MAX_RULES, `at most ${MAX_RULES} rules`).default([]);

export const filterJson = z.strictObject(
  {
    rules,
    or_rules: rules,
    contact_type: z.enum(['PERSON', 'COMPANY', 'OPPORTUNITY']).default('PERSON'),
  },
  `must be JSON object text (at most ${MAX_FILTER_JSON} characters) with rules, or_rules and contact_type`,
);
export type FilterJson = z.output<typeof filterJson>;

/** The deal filter's filterJson: `contact_type`, when sent, is OPPORTUNITY. */
const dealFilterJson = filterJson.extend({ contact_type: z.literal('OPPORTUNITY').default('OPPORTUNITY') });

/** `filterJson` as JSON-object text (strings in double or single quotes), read by `schema`. */
const filterJsonText = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => {
    if (typeof value !== 'string') return value;
    if (value.length > MAX_FILTER_JSON) return value; // fails the object check: not parsed at all
    // the Java client single-quotes its strings ({'rules':[…]}); nothing else is loosened
    return parseSingleQuotedJson(value) ?? value;
  }, schema);

/** POST /dev/api/filters/filter/dynamic-filter: form fields (or JSON), `filterJson` as JSON-object text (strings in double or single quotes). */
export const dynamicFilterForm = z.strictObject({
  /** Default 20, 10 for deals (as their own lists); the route picks by `contact_type`. */
  page_size: intField({ min: 1, max: PAGE_SIZE_MAX })
    .optional()
    .meta({ description: `Items per page (default ${DEFAULT_PAGE_SIZE}; ${DEAL_PAGE_DEFAULT} for OPPORTUNITY; at most ${PAGE_SIZE_MAX}). ${PAGE_SIZE_RULE}` }),
  cursor: pageParams(DEFAULT_PAGE_SIZE).cursor,
  global_sort_key: sortParam,
  filterJson: filterJsonText(filterJson),
});

/** POST /dev/api/deal/filters/filter/dynamic-filter: the same form, for deals only. */
export const dealFilterForm = dynamicFilterForm.extend({
  page_size: intField({ min: 1, max: PAGE_SIZE_MAX })
    .default(DEAL_PAGE_DEFAULT)
    .meta({ description: `Items per page (default ${DEAL_PAGE_DEFAULT}, at most ${PAGE_SIZE_MAX}). ${PAGE_SIZE_RULE}` }),
  filterJson: filterJsonText(dealFilterJson),
});
