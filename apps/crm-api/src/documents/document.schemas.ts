import { xmlRoot } from '@lib/routing';
import { pathId, text, z } from '@lib/validation';
import { contactIdList, idList } from '../contacts/contact-links';
import { idField, intField } from '../input/fields';
import { DOC_TYPES, NETWORK_TYPES } from './document.model';

/** Bounds (apps/crm-api/README.md, "Documents and help-desk tickets"; docs/RESILIENCE.md, "Bounds"). */
export const DOCUMENT_NAME_MAX = 250;
export const DOCUMENT_URL_MAX = 2_048;
export const DOCUMENT_EXTENSION_MAX = 250;
/** A stated size in bytes (1 TB): the file is elsewhere, the number only shown. */
export const DOCUMENT_SIZE_MAX = 1_000_000_000_000;

/** Shown in responses; accepted back (so a fetched document can be sent unchanged) and ignored. */
const readOnly = z.unknown().optional();

/** A link to the file: http or https only (a `javascript:` or `file:` link is refused, so no client opens one). */
export const documentUrl = z
  .string()
  .min(1, 'is required')
  .max(DOCUMENT_URL_MAX, `must be at most ${DOCUMENT_URL_MAX} characters`)
  .refine((value) => {
    if (!URL.canParse(value)) return false;
    const { protocol } = new URL(value);
    return protocol === 'https:' || protocol === 'http:';
  }, 'must be an http or https link to the file')
  .meta({ description: `The link to the file (http or https, at most ${DOCUMENT_URL_MAX} characters): required` });

const fields = {
  url: documentUrl,
  name: text({ max: DOCUMENT_NAME_MAX }).optional().meta({ description: 'Default: the last segment of the url\'s path' }),
  doc_type: z.enum(DOC_TYPES).optional().meta({ description: 'Default ATTACHMENT' }),
  network_type: z.enum(NETWORK_TYPES).optional().meta({ description: 'Where the file lives (default OTHER)' }),
  extension: z.string().max(DOCUMENT_EXTENSION_MAX).optional().meta({ description: 'The file\'s name or extension, as the client states it' }),
  size: intField({ min: 0, max: DOCUMENT_SIZE_MAX }).optional().meta({ description: 'Bytes, as the client states it (a number or digit string)' }),
  contact_ids: contactIdList.optional().meta({ description: 'Related contacts of the account (at most 10)' }),
  deal_ids: idList('deals').optional().meta({ description: 'Related deals of the account (at most 100)' }),
  owner_id: idField.optional().meta({ description: 'A user of the account; default the caller on creation, kept on update' }),
  uploaded_time: readOnly,
  updated_time: readOnly,
  entity_type: readOnly,
  count: readOnly,
  cursor: readOnly,
};

/** POST /dev/api/documents. */
export const documentInput = xmlRoot(z.strictObject({ id: idField.optional(), ...fields }), 'document');
export type DocumentInput = z.output<typeof documentInput>;

/** PUT /dev/api/documents: the whole document with its id (fields not sent take their defaults, relations none). */
export const documentUpdate = xmlRoot(z.strictObject({ id: idField, ...fields }), 'document');
export type DocumentUpdate = z.output<typeof documentUpdate>;

export const documentParams = z.strictObject({ id: pathId });
export const contactDocumentsParams = z.strictObject({ contactId: pathId });
