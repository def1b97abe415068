import type { AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import { BODY_LIMITS } from '../http/body-limits';
import { commonErrors, notFoundError } from '../http/errors.outputs';
import { pageReply } from '../http/page-reply';
import { TICKET_NOTE_PAGE, TICKET_PAGE } from './ticket.paging';
import { ticketDeletedOutput, ticketFilterList, ticketGroupList, ticketListOutput, ticketNoteListOutput, ticketOne } from './ticket.outputs';
import { newTicketInput, ticketFilterQuery, ticketNoteInput, ticketNotesParams, ticketParams, wholeListQuery } from './ticket.schemas';
import { TICKET_FILTERS } from './ticket-filters';
import type { TicketService } from './ticket.service';
import { ticketFilterView, ticketGroupView, ticketView } from './ticket.view';

const TAGS = ['tickets'];
const route = defineRoute.group({ auth: 'basic', tags: TAGS, responses: commonErrors });
const PATH = '/dev/api/tickets';
const one = { description: 'The ticket', schema: ticketOne };

/** The help desk (the original's 10): literal paths before `/dev/api/tickets/:id`. */
export function ticketRoutes(tickets: TicketService): AnyRoute[] {
  return [
    route.post(`${PATH}/new-ticket`, {
      summary: 'Create a ticket (the original\'s 10.2)',
      description:
        'requester_name, requester_email, subject, priority (LOW, MEDIUM, HIGH), status (NEW, OPEN, PENDING, CLOSED), groupID and html_text required. ' +
        'The contact with requester_email becomes the ticket\'s contact (a new person owned by the caller when none has it, as POST /dev/api/contacts makes one). ' +
        'html_text is sanitised and stored as the ticket\'s first note (the requester\'s).',
      request: { body: newTicketInput, bodyLimit: BODY_LIMITS.record },
      responses: { 200: one },
      handler: async ({ body, user, store }) => ({ status: 200, body: ticketView(await tickets.create(store, user, body)) }),
    }),
    route.get(`${PATH}/filters`, {
      summary: 'The built-in ticket filters, with the original\'s conditions (the original\'s 10.4)',
      responses: { 200: { description: 'Every filter, the same ids in every account', schema: ticketFilterList } },
      handler: async ({ user }) => ({ status: 200, body: TICKET_FILTERS.map((filter) => ticketFilterView(filter, user._id)) }),
    }),
    route.get(`${PATH}/filter`, {
      summary: 'A page of the tickets a filter selects (the original\'s 10.1)',
      description: '`filter_id` required (GET /dev/api/tickets/filters). Newest activity first unless `global_sort_key` says otherwise; `count` on the first item, `cursor` on the last when more follow.',
      request: { query: ticketFilterQuery },
      responses: { 200: { description: 'Tickets; [] when none', schema: ticketListOutput } },
      handler: async ({ query, user, store, media }) => pageReply(media, await tickets.filtered(store, user, query), TICKET_PAGE),
    }),
    route.get(`${PATH}/groups`, {
      summary: 'The help-desk groups a ticket\'s groupID names (every account starts with Support)',
      responses: { 200: { description: 'Groups, oldest first', schema: ticketGroupList } },
      handler: async ({ store }) => ({ status: 200, body: (await tickets.groups(store)).map(ticketGroupView) }),
    }),
    route.get(`${PATH}/notes/:ticketId`, {
      summary: 'The messages (notes) of a ticket, oldest first (the original\'s 10.5)',
      request: { params: ticketNotesParams, query: wholeListQuery },
      responses: { 200: { description: 'Notes, the requester\'s first message first', schema: ticketNoteListOutput }, 404: notFoundError },
      handler: async ({ params, query, store, media }) => pageReply(media, await tickets.notes(store, params.ticketId, query), TICKET_NOTE_PAGE),
    }),
    route.get(`${PATH}/:id`, {
      summary: 'One ticket',
      request: { params: ticketParams },
      responses: { 200: one, 404: notFoundError },
      handler: async ({ params, store }) => ({ status: 200, body: ticketView(await tickets.get(store, params.id)) }),
    }),
    route.delete(`${PATH}/:id`, {
      summary: 'Delete a ticket and its notes (the original\'s 10.3)',
      request: { params: ticketParams },
      responses: { 200: { description: 'Deleted: {"status":"success"}', schema: ticketDeletedOutput }, 404: notFoundError },
      handler: async ({ params, store }) => {
        await tickets.remove(store, params.id);
        return { status: 200, body: { status: 'success' as const } };
      },
    }),
    route.post('/dev/api/notes/:ticketId', {
      summary: 'Add a note to a ticket (the original\'s 10.6); answers the ticket',
      description: '`html_text` required (sanitised); `note_type` PUBLIC (a reply: the ticket\'s last_reply_text) or PRIVATE (agents only). At most 1000 notes a ticket.',
      request: { params: ticketNotesParams, body: ticketNoteInput, bodyLimit: BODY_LIMITS.record },
      responses: { 200: one, 404: notFoundError },
      handler: async ({ params, body, store }) => ({ status: 200, body: ticketView(await tickets.addNote(store, params.ticketId, body)) }),
    }),
  ];
}
