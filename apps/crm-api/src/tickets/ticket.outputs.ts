import { xmlList, xmlRoot } from '@lib/routing';
import { z } from '@lib/validation';
import { XML_NAMES } from '../http/xml-names';
import { NOTE_AUTHORS, NOTE_TYPES, TICKET_PRIORITIES, TICKET_STATUSES } from './ticket.model';

const paged = {
  count: z.number().int().optional().meta({ description: 'On the first item: number of all matching records' }),
  cursor: z.string().optional().meta({ description: 'On the last item when another page exists' }),
};

/** A ticket as the original's Tickets serializes it (ids for the group, assignee and contact). */
export const ticketOutput = z
  .strictObject({
    id: z.number().int(),
    groupID: z.number().int(),
    assigned_to_group: z.boolean(),
    assigneeID: z.number().int().optional().meta({ description: 'The assigned user, when there is one' }),
    assigned_time: z.number().int().optional().meta({ description: 'epoch milliseconds' }),
    requester_name: z.string(),
    requester_email: z.string(),
    contactID: z.number().int().optional().meta({ description: 'The contact with the requester\'s email; absent once it is deleted' }),
    subject: z.string(),
    cc_emails: z.array(z.string()),
    created_time: z.number().int().meta({ description: 'epoch milliseconds' }),
    last_updated_time: z.number().int().meta({ description: 'epoch milliseconds' }),
    last_updated_by: z.enum(['REQUESTER', 'AGENT']),
    first_notes_text: z.string().meta({ description: 'The first message as plain text' }),
    last_reply_text: z.string().meta({ description: 'The last message as plain text' }),
    status: z.enum(TICKET_STATUSES),
    priority: z.enum(TICKET_PRIORITIES),
    source: z.literal('API'),
    created_by: z.literal('AGENT'),
    user_replies_count: z.number().int().meta({ description: 'Messages of the ticket, the first included' }),
    html_text: z.string().meta({ description: 'The first message, sanitised' }),
    labels: z.array(z.string()),
    entity_type: z.literal('tickets'),
  })
  .meta({ id: 'Ticket' });

export const ticketOne = xmlRoot(ticketOutput, XML_NAMES.ticket.root);
export const ticketListOutput = xmlList(ticketOutput.extend(paged), XML_NAMES.ticket.list);

export const ticketNoteOutput = z
  .strictObject({
    id: z.number().int(),
    ticket_id: z.number().int(),
    created_by: z.enum(NOTE_AUTHORS),
    created_time: z.number().int().meta({ description: 'epoch milliseconds' }),
    plain_text: z.string(),
    html_text: z.string().meta({ description: 'Sanitised' }),
    note_type: z.enum(NOTE_TYPES),
  })
  .meta({ id: 'TicketNote' });
export const ticketNoteListOutput = xmlList(ticketNoteOutput.extend(paged), XML_NAMES.ticketNote.list);

const conditionOutput = z.strictObject({ LHS: z.string(), CONDITION: z.string(), RHS: z.string() });
export const ticketFilterOutput = z
  .strictObject({
    id: z.number().int(),
    name: z.string(),
    conditions: z.array(conditionOutput).meta({ description: 'Met by a ticket when any status condition and every other condition holds; RHS "0" of assignee_id is the caller' }),
    owner_id: z.number().int().meta({ description: 'The caller (the built-in filters are every user\'s)' }),
    is_default_filter: z.literal(true),
  })
  .meta({ id: 'TicketFilter' });
export const ticketFilterList = xmlList(ticketFilterOutput, XML_NAMES.ticketFilter.list);

export const ticketGroupOutput = z
  .strictObject({
    id: z.number().int(),
    group_name: z.string(),
    created_time: z.number().int().meta({ description: 'epoch milliseconds' }),
  })
  .meta({ id: 'TicketGroup' });
export const ticketGroupList = xmlList(ticketGroupOutput, XML_NAMES.ticketGroup.list);

export const ticketDeletedOutput = xmlRoot(z.strictObject({ status: z.literal('success') }), XML_NAMES.result.root);
