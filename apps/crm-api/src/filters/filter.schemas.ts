import { z } from '@lib/validation';
import { intField } from '../fields';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, pageParams, sortParam } from '../paging';

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

/** POST /dev/api/filters/filter/dynamic-filter: form fields (or JSON), `filterJson` as JSON-object text. */
export const dynamicFilterForm = z.strictObject({
  page_size: intField({ min: 1, max: MAX_PAGE_SIZE }).default(DEFAULT_PAGE_SIZE),
  cursor: pageParams.cursor,
  global_sort_key: sortParam,
  filterJson: z.preprocess(
    (value) => {
      if (typeof value !== 'string') return value;
      if (value.length > MAX_FILTER_JSON) return value; // fails the object check: not parsed at all
      try {
        return JSON.parse(value);
      } catch {
        return value;
      }
    },
    filterJson,
  ),
});
