import { xmlList, xmlRoot } from '@lib/routing';
import { z } from '@lib/validation';
import { userOutput } from '../accounts/user.outputs';
import { XML_NAMES } from '../http/xml-names';
import { contactOutput } from '../contacts/contact.outputs';

/** Response schemas, for the OpenAPI document. */
export const dealOutput = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  expected_value: z.number().int(),
  pipeline_id: z.number().int(),
  milestone: z.string(),
  probability: z.number().int(),
  close_date: z.number().int().meta({ description: 'epoch seconds' }),
  created_time: z.number().int().meta({ description: 'epoch seconds' }),
  updated_time: z.number().int().meta({ description: 'epoch seconds' }),
  owner_id: z.string().meta({ description: 'Id of the owning user' }),
  contact_ids: z.array(z.string()),
  contacts: z.array(contactOutput).meta({ description: 'The related contacts, as full contact objects' }),
  custom_data: z.array(z.strictObject({ name: z.string(), value: z.string() })),
  deal_source_id: z.number().int().meta({ description: 'Id of the deal source (GET /dev/api/categories?entity_type=DEAL_SOURCE); 0: none' }),
  notes: z.array(z.string()).meta({ description: 'Ids of the notes related to the deal, oldest first (read-only; relate notes with deal_ids on the notes calls)' }),
  entity_type: z.literal('deal'),
  track: z.string().optional().meta({ description: 'Name of the track' }),
  owner: userOutput.optional(),
}).meta({ id: 'Deal' });

export const pagedDealOutput = dealOutput.extend({
  count: z.number().int().optional().meta({ description: 'On the first item: number of all matching deals' }),
  cursor: z.string().optional().meta({ description: 'On the last item when another page exists' }),
});

/** A page of deals: `<collection><opportunity>…</opportunity>…</collection>` in XML. */
export const dealPageOutput = xmlList(pagedDealOutput, XML_NAMES.deal.list);
/** D8/D9: the same answer in each type's shape (XML element names cannot hold every milestone name). */
export const byMilestoneOutput = xmlRoot(
  z.union([
    z.record(z.string(), z.array(dealOutput)).meta({ description: 'JSON: every milestone of the track, in track order, with its deals (empty lists included)' }),
    z
      .strictObject({ milestone: z.array(z.strictObject({ name: z.string(), opportunity: z.array(dealOutput) })) })
      .meta({ description: 'XML: <milestones><milestone><name>Open</name><opportunity>…</opportunity>…</milestone>…</milestones>' }),
  ]),
  'milestones',
);
export const deletedOutput = z.strictObject({ deleted: z.array(z.number().int()).meta({ description: 'The ids that were deleted' }) });
