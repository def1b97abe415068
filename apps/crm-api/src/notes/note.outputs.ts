import { z } from '@lib/validation';

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

export const noteListOutput = z.array(
  noteOutput.extend({
    count: z.number().int().optional().meta({ description: 'On the first item: number of all matching notes' }),
    cursor: z.string().optional().meta({ description: 'On the last item when another page exists' }),
  }),
);
