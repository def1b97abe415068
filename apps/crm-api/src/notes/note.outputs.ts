import { xmlList } from '@lib/routing';
import { z } from '@lib/validation';
import { XML_NAMES } from '../http/xml-names';

/** Response schemas, for the OpenAPI document. */
export const noteOutput = z.strictObject({
  id: z.number().int(),
  created_time: z.number().int().meta({ description: 'epoch seconds' }),
  updated_time: z.number().int().meta({ description: 'epoch seconds' }),
  subject: z.string(),
  description: z.string(),
  contacts: z.array(z.string()).meta({ description: 'Ids of the related contacts' }),
  deal_ids: z.array(z.string()).optional().meta({ description: 'Ids of the related deals, when there are any' }),
  owner_id: z.number().int().optional().meta({ description: 'Id of the owning user' }),
  entity_type: z.literal('note'),
}).meta({ id: 'Note' });

export const noteListOutput = xmlList(
  noteOutput.extend({
    count: z.number().int().optional().meta({ description: 'On the first item: number of all matching notes' }),
    cursor: z.string().optional().meta({ description: 'On the last item when another page exists' }),
  }),
  XML_NAMES.note.list,
);
