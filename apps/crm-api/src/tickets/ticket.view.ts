import type { z } from '@lib/validation';
import type { TicketDoc, TicketGroupDoc, TicketNoteDoc } from './ticket.model';
import type { ticketFilterOutput, ticketGroupOutput, ticketNoteOutput, ticketOutput } from './ticket.outputs';
import type { TicketFilter } from './ticket-filters';

/** The wire shape of a ticket (JSON and XML). */
export function ticketView(doc: TicketDoc): z.input<typeof ticketOutput> {
  return {
    id: doc._id,
    groupID: doc.group,
    assigned_to_group: doc.assignee === undefined,
    ...(doc.assignee !== undefined && { assigneeID: doc.assignee }),
    ...(doc.assigned_time !== undefined && { assigned_time: doc.assigned_time }),
    requester_name: doc.requester_name,
    requester_email: doc.requester_email,
    ...(doc.contact !== undefined && { contactID: doc.contact }),
    subject: doc.subject,
    cc_emails: doc.cc_emails,
    created_time: doc.created_time,
    last_updated_time: doc.last_updated_time,
    last_updated_by: doc.last_updated_by,
    first_notes_text: doc.first_notes_text,
    last_reply_text: doc.last_reply_text,
    status: doc.status,
    priority: doc.priority,
    source: 'API' as const,
    created_by: 'AGENT' as const,
    user_replies_count: doc.notes_count,
    html_text: doc.html_text,
    labels: doc.labels,
    entity_type: 'tickets' as const,
  };
}
export type TicketView = ReturnType<typeof ticketView>;

export function ticketNoteView(doc: TicketNoteDoc): z.input<typeof ticketNoteOutput> {
  return { id: doc._id, ticket_id: doc.ticket, created_by: doc.created_by, created_time: doc.created_time, plain_text: doc.plain_text, html_text: doc.html_text, note_type: doc.note_type };
}
export type TicketNoteView = ReturnType<typeof ticketNoteView>;

export const ticketFilterView = (filter: TicketFilter, caller: number): z.input<typeof ticketFilterOutput> => ({
  id: filter.id,
  name: filter.name,
  conditions: filter.conditions,
  owner_id: caller,
  is_default_filter: true as const,
});

export const ticketGroupView = (doc: TicketGroupDoc): z.input<typeof ticketGroupOutput> => ({ id: doc._id, group_name: doc.group_name, created_time: doc.created_time });
