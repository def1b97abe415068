import { xmlRoot } from '@lib/routing';
import { formArray, pathId, queryInt, text, z } from '@lib/validation';
import { idField, intField } from '../input/fields';
import { MAX_RELATED_CONTACTS } from '../contacts/contact-links';
import { pageParams as pageParamsOf, sortParam, wholeListQuery as wholeList } from '../paging';

/** D1, D10: ten deals a page unless asked (the default they always had). */
export const DEAL_PAGE_DEFAULT = 10;
const pageParams = pageParamsOf(DEAL_PAGE_DEFAULT);
/** D11, D12: unpaged in the spec; the whole list when it fits a page. */
export const wholeListQuery = wholeList;

export const MAX_EXPECTED_VALUE = 1_000_000_000_000;
/** 9999-12-31T23:59:59Z. */
const MAX_EPOCH_SECONDS = 253_402_300_799;
const MAX_CONTACTS = MAX_RELATED_CONTACTS;
export const DEAL_NAME_MAX = 500;
/** A deal's text (64 Ki characters, as a note's); its name is a title. */
export const DEAL_DESCRIPTION_MAX = 65_536;
/** Custom fields of a deal, as a contact's properties: 50 entries, names ≤ 100, names and values together ≤ 64 Ki characters. */
export const MAX_CUSTOM_DATA = 50;
export const CUSTOM_NAME_MAX = 100;
export const CUSTOM_TEXT_MAX = 65_536;

const customText = (data: Array<{ name: string; value: string }>) => data.reduce((n, d) => n + d.name.length + d.value.length, 0);

/** Shown in responses; accepted back (so a fetched deal can be sent unchanged) and ignored. */
const readOnly = z.unknown().optional();

const writable = {
  name: text({ max: DEAL_NAME_MAX }),
  description: z.string().max(DEAL_DESCRIPTION_MAX).optional(),
  expected_value: intField({ min: 0, max: MAX_EXPECTED_VALUE }).meta({ override: { type: ['integer', 'string'] } }),
  pipeline_id: idField.meta({ description: 'Id of a track of the account (see K1)' }),
  milestone: z.string().min(1, 'must not be empty').max(100).meta({ description: 'A milestone of the track, exactly as the track spells it' }),
  probability: intField({ min: 0, max: 100 }).meta({ override: { type: ['integer', 'string'] } }).optional(),
  close_date: intField({ min: 0, max: MAX_EPOCH_SECONDS }).meta({ description: 'epoch seconds', override: { type: ['integer', 'string'] } }),
  owner_id: idField.meta({ description: 'Id of a user of the account' }),
  contact_ids: z.array(idField).max(MAX_CONTACTS, `at most ${MAX_CONTACTS} contacts`).optional(),
  deal_source_id: z
    .union([z.literal(0), z.enum(['0', '']).transform(() => 0), idField], 'must be the id of a deal source (GET /dev/api/categories?entity_type=DEAL_SOURCE), or 0 for none')
    .meta({ description: 'Id of a deal source of the account (a DEAL_SOURCE category); 0 (default) or "" for none', override: { type: ['integer', 'string'] } })
    .optional(),
  // replaced whole by every write: what a request sends is what the deal stores
  custom_data: z
    .array(z.strictObject({ name: z.string().min(1, 'must not be empty').max(CUSTOM_NAME_MAX), value: z.string().max(CUSTOM_TEXT_MAX) }))
    .max(MAX_CUSTOM_DATA, `at most ${MAX_CUSTOM_DATA} entries`)
    .superRefine((data, ctx) => {
      const chars = customText(data);
      if (chars > CUSTOM_TEXT_MAX) ctx.addIssue({ code: 'custom', message: `a deal's custom data holds at most ${CUSTOM_TEXT_MAX} characters of names and values together (this would make ${chars})` });
    })
    .optional(),
};

const shown = {
  created_time: readOnly,
  updated_time: readOnly,
  contacts: readOnly,
  entity_type: readOnly,
  owner: readOnly,
  track: readOnly,
  pic: readOnly,
  prefs: readOnly,
  notes: readOnly,
  note_description: readOnly,
  count: readOnly,
  cursor: readOnly,
};

/** D3/D4/D5 body: a whole deal; unknown fields are refused. */
export const dealInput = xmlRoot(z.strictObject({ id: idField.optional(), ...writable, ...shown }), 'opportunity');
export type DealInput = z.output<typeof dealInput>;

/** partial-update body: the id and only the fields to change. */
export const dealPatch = z
  .strictObject(writable)
  .partial()
  .extend({ id: idField, ...shown });
export type DealPatch = z.output<typeof dealPatch>;

/**
 * partial-update/delete-contact: a deal JSON with its id and the contacts to take out; its other
 * fields are checked as partial-update checks them and left unchanged (the original: "This will not
 * affect other fields").
 */
export const dealContactRemoval = dealPatch.extend({
  contact_ids: z.array(idField).min(1, 'must list at least one contact id').max(MAX_CONTACTS, `at most ${MAX_CONTACTS} contacts`),
});
export type DealContactRemoval = z.output<typeof dealContactRemoval>;

export const dealParams = z.strictObject({ id: pathId });
export const contactDealsParams = z.strictObject({ id: pathId });
export const emailParams = z.strictObject({ email: z.string().min(1).max(254) });
export const listQuery = z.strictObject({ ...pageParams, global_sort_key: sortParam });

/** `pipeline_id`: 0 is the Default track; in D10, 1 is every track. */
const pipelineQuery = queryInt({ min: 0, max: Number.MAX_SAFE_INTEGER, description: '0: the Default track; otherwise a track id' });
export const byPipelineQuery = z.strictObject({ pipeline_id: pipelineQuery });
export const basedQuery = z.strictObject({
  pipeline_id: queryInt({ min: 0, max: Number.MAX_SAFE_INTEGER, description: '0: the Default track; 1: all tracks; otherwise a track id' }),
  ...pageParams,
  global_sort_key: sortParam,
});

/** D7: JSON `{"ids": [1, 2]}` or the form field `ids=[1,2]`. */
export const bulkInput = z.strictObject({ ids: formArray(idField).pipe(z.array(z.number()).min(1, 'must list at least one id').max(1000, 'at most 1000 ids')) });
