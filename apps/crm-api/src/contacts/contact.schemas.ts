import { formArray, pathId, queryEnum, z } from '@lib/validation';
import { idField, intField } from '../input/fields';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_MAX, PAGE_SIZE_RULE, pageParams as pageParamsOf, sortParam } from '../paging';
import { MAX_PROPERTIES, PROPERTY_TEXT_MAX, TAG_MAX, tagName, WIDGET_PROPERTIES_MAX } from './contact-rules';

const pageParams = pageParamsOf(DEFAULT_PAGE_SIZE);

export const propertyInput = z.strictObject({
  name: z.string().min(1, 'must not be empty').max(100),
  type: z.enum(['SYSTEM', 'CUSTOM']),
  subtype: z.string().max(50).optional(),
  value: z.string().max(PROPERTY_TEXT_MAX).optional(),
});

const tags = z.array(tagName).max(TAG_MAX, `at most ${TAG_MAX} tags`);
const properties = z.array(propertyInput).max(MAX_PROPERTIES, `at most ${MAX_PROPERTIES} properties`);
const campaignList = z.array(z.record(z.string(), z.unknown())).max(1000);
/** Shown in responses; accepted back (so a fetched contact can be sent unchanged) and ignored. */
const readOnly = z.unknown().optional();

/** C3/C4 body: the contact fields of the spec, exactly; unknown fields are refused. */
export const contactInput = z.strictObject({
  id: idField.optional(),
  type: z.enum(['PERSON', 'COMPANY']).optional(),
  tags: tags.optional(),
  lead_score: intField({ min: 0, max: Number.MAX_SAFE_INTEGER }).optional(),
  star_value: intField({ min: 0, max: 5 }).optional(),
  contact_company_id: idField.nullable().optional(),
  properties: properties.optional(),
  widget_properties: z.string().max(WIDGET_PROPERTIES_MAX).nullable().optional(),
  campaignStatus: campaignList.optional(),
  unsubscribeStatus: campaignList.optional(),
  emailBounceStatus: campaignList.optional(),
  created_time: readOnly,
  updated_time: readOnly,
  tags_with_time_json: readOnly,
  domainUser: readOnly,
  count: readOnly,
  cursor: readOnly,
});
export type ContactInput = z.output<typeof contactInput>;

export const idParams = z.strictObject({ id: pathId });
export const companyParams = z.strictObject({ companyId: pathId });
export const emailParams = z.strictObject({ email: z.string().min(1).max(254) });
export const phoneParams = z.strictObject({
  phone: z
    .string()
    .max(50, 'must be at most 50 characters')
    .regex(/^[0-9+\-(). ]*[0-9][0-9+\-(). ]*$/, 'must be a phone number: digits, spaces and + - ( ) .'),
});
export const listQuery = z.strictObject(pageParams);
/** C1: paged, in the order of `global_sort_key`. */
export const sortedListQuery = z.strictObject({ ...pageParams, global_sort_key: sortParam });
export const emailQuery = z.strictObject({ email: z.string().min(1, 'is required').max(254) });

export const searchQuery = z.strictObject({
  q: z.string().trim().min(1, 'must not be empty').max(100),
  type: queryEnum(['PERSON', 'COMPANY']).optional(),
  ...pageParams,
});

/** Form calls (convention 2): arrays arrive as JSON-array text. */
export const searchEmailsForm = z.strictObject({ email_ids: formArray(z.string().max(254)).pipe(z.array(z.string()).min(1, 'must list at least one email').max(100)) });
export const tagsForm = z.strictObject({ email: z.string().min(1).max(254), tags: formArray(tagName).pipe(tags.min(1, 'must list at least one tag')) });
export const scoreForm = z.strictObject({ email: z.string().min(1).max(254), score: intField({ min: -1_000_000_000, max: 1_000_000_000 }) });
export const changeOwnerForm = z.strictObject({ owner_email: z.string().min(1).max(254), contact_id: idField });
/** Form or JSON, so page_size may come as text or as a number. */
export const companiesForm = z.strictObject({
  page_size: intField({ min: 1, max: PAGE_SIZE_MAX })
    .default(DEFAULT_PAGE_SIZE)
    .meta({ description: `Items per page (default ${DEFAULT_PAGE_SIZE}, at most ${PAGE_SIZE_MAX}). ${PAGE_SIZE_RULE}` }),
  cursor: pageParams.cursor,
  global_sort_key: sortParam,
});

/** The official clients' extra calls (JSON). */
export const editPropertiesInput = z.strictObject({ id: idField, properties: properties.min(1, 'must list at least one property') });
export const editTagsInput = z.strictObject({ id: idField, tags: tags.min(1, 'must list at least one tag') });
export const leadScoreInput = z.strictObject({ id: idField, lead_score: intField({ min: 0, max: Number.MAX_SAFE_INTEGER }) });
export const starInput = z.strictObject({ id: idField, star_value: intField({ min: 0, max: 5 }) });

/** The system property names of the spec; C11 reads a property without `type` as one of these or as custom. */
const SYSTEM_PROPERTY_NAMES = new Set(['first_name', 'last_name', 'company', 'title', 'email', 'phone', 'address', 'website']);

/**
 * C11 body: a property whose `type` may be left out (the Java client's addProperty sends none):
 * a system property name is then `SYSTEM`, any other name `CUSTOM`.
 */
export const addPropertyInput = propertyInput
  .extend({ type: propertyInput.shape.type.optional() })
  .transform((property) => ({ ...property, type: property.type ?? (SYSTEM_PROPERTY_NAMES.has(property.name) ? ('SYSTEM' as const) : ('CUSTOM' as const)) }));
