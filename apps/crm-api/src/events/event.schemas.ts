import { pathId, queryInt, text, z } from '@lib/validation';
import { contactIdList } from '../contacts/contact-links';
import { wholeListParams, wholeListQuery as wholeList } from '../paging';
import { epochField, inOrder, MAX_EPOCH } from '../input/epoch';
import { idField } from '../input/fields';
import { EVENT_COLORS } from './event.model';

/** Shown in responses; accepted back (so a fetched event can be sent unchanged) and ignored. */
const readOnly = z.unknown().optional();

/** An event's title. */
export const EVENT_TITLE_MAX = 1_000;

const fields = {
  title: text({ max: EVENT_TITLE_MAX }).optional(),
  start: epochField().optional(),
  end: epochField().optional(),
  allDay: z.boolean().optional(),
  color: z.enum(EVENT_COLORS).nullable().optional().meta({ description: 'red (high), yellow (normal) or green (low); null clears it' }),
  is_event_starred: z.boolean().optional(),
  contact_ids: contactIdList.optional(),
  contacts: contactIdList.optional().meta({ description: 'Same as contact_ids (the name responses use); send one of the two' }),
  created_time: readOnly,
  updated_time: readOnly,
  count: readOnly,
  cursor: readOnly,
};

/**
 * E3 and E4 share one body: title, start and end are required when it creates (checked by the
 * service, so E4 can update any subset of an existing event).
 */
export const eventInput = z.strictObject({ id: idField.optional(), ...fields });
export type EventInput = z.output<typeof eventInput>;

const epochQuery = (description: string) => queryInt({ min: 0, max: MAX_EPOCH, description });

/** E1: both bounds required. */
export const rangeQuery = z
  .strictObject({ start: epochQuery('Range start (epoch seconds)'), end: epochQuery('Range end (epoch seconds)'), ...wholeListParams })
  .refine((q) => inOrder(q.start, q.end), { path: ['end'], message: 'must not be before start' });

export const eventParams = z.strictObject({ id: pathId });
export const contactEventsParams = z.strictObject({ contact_id: pathId });
export const wholeListQuery = wholeList;
