import { xmlList } from '@lib/routing';
import { z } from '@lib/validation';
import { XML_NAMES } from '../http/xml-names';
import { userOutput } from '../accounts/user.outputs';

/** Response schemas, for the OpenAPI document. */
export const propertyOutput = z.strictObject({ type: z.enum(['SYSTEM', 'CUSTOM']), name: z.string(), subtype: z.string().optional(), value: z.string().optional() }).meta({ id: 'Property' });

export const contactOutput = z.strictObject({
  id: z.number().int(),
  type: z.enum(['PERSON', 'COMPANY']),
  tags: z.array(z.string()),
  lead_score: z.number().int(),
  star_value: z.number().int(),
  contact_company_id: z.number().int().optional(),
  properties: z.array(propertyOutput),
  campaignStatus: z.array(z.record(z.string(), z.unknown())),
  unsubscribeStatus: z.array(z.record(z.string(), z.unknown())),
  emailBounceStatus: z.array(z.record(z.string(), z.unknown())),
  created_time: z.number().int().meta({ description: 'epoch seconds' }),
  updated_time: z.number().int().meta({ description: 'epoch seconds' }),
  widget_properties: z.string().optional(),
  tags_with_time_json: z.string().meta({ description: 'JSON object: tag → epoch milliseconds when it was added' }),
  domainUser: userOutput.optional(),
}).meta({ id: 'Contact' });

export const pagedContactOutput = contactOutput.extend({
  count: z.number().int().optional().meta({ description: 'On the first item: number of all matching contacts' }),
  cursor: z.string().optional().meta({ description: 'On the last item when another page exists' }),
});

/** A page of contacts: `<contacts><contact>…</contact>…</contacts>` in XML. */
export const contactListOutput = xmlList(pagedContactOutput, XML_NAMES.contact.list);
