import { xmlList } from '@lib/routing';
import { z } from '@lib/validation';
import { XML_NAMES } from '../http/xml-names';
import { contactOutput } from '../contacts/contact.outputs';
import { EVENT_COLORS } from './event.model';

/** Response schemas, for the OpenAPI document. */
export const eventOutput = z.strictObject({
  id: z.number().int(),
  title: z.string(),
  start: z.number().int().meta({ description: 'epoch seconds' }),
  end: z.number().int().meta({ description: 'epoch seconds' }),
  allDay: z.boolean(),
  color: z.enum(EVENT_COLORS).optional(),
  is_event_starred: z.boolean(),
  contacts: z.array(contactOutput),
  created_time: z.number().int().meta({ description: 'epoch seconds' }),
  updated_time: z.number().int().meta({ description: 'epoch seconds' }),
}).meta({ id: 'Event' });

export const eventListOutput = xmlList(
  eventOutput.extend({
    count: z.number().int().optional().meta({ description: 'On the first item: number of all matching events' }),
    cursor: z.string().optional().meta({ description: 'On the last item when another page exists' }),
  }),
  XML_NAMES.event.list,
);
