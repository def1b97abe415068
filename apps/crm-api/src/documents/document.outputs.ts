import { xmlList, xmlRoot } from '@lib/routing';
import { z } from '@lib/validation';
import { XML_NAMES } from '../http/xml-names';
import { DOC_TYPES, NETWORK_TYPES } from './document.model';

/** A document as the original's Document serializes it (metadata and link; no owner or contact objects: ids). */
export const documentOutput = z
  .strictObject({
    id: z.number().int(),
    name: z.string(),
    url: z.string(),
    doc_type: z.enum(DOC_TYPES),
    network_type: z.enum(NETWORK_TYPES),
    extension: z.string().optional(),
    size: z.number().int().optional().meta({ description: 'Bytes, as the client stated it' }),
    contact_ids: z.array(z.string()).meta({ description: 'Ids of the related contacts' }),
    deal_ids: z.array(z.string()).meta({ description: 'Ids of the related deals' }),
    owner_id: z.number().int().meta({ description: 'Id of the user who added it' }),
    uploaded_time: z.number().int().meta({ description: 'epoch seconds' }),
    updated_time: z.number().int().meta({ description: 'epoch seconds' }),
    entity_type: z.literal('document'),
  })
  .meta({ id: 'Document' });

export const documentOne = xmlRoot(documentOutput, XML_NAMES.document.root);
export const documentListOutput = xmlList(
  documentOutput.extend({
    count: z.number().int().optional().meta({ description: 'On the first item: number of all matching documents' }),
    cursor: z.string().optional().meta({ description: 'On the last item when another page exists' }),
  }),
  XML_NAMES.document.list,
);
