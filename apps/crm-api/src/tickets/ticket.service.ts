import { badRequest, HttpError, validationFailed } from '@lib/errors';
import { retryWhileRaced } from '@lib/mongo';
import { sortKeysOf } from '@lib/paging';
import type { DomainUserDoc } from '../accounts/domain-user.model';
import type { ContactService } from '../contacts/contact.service';
import { shownAsIs, type PageParams, type ShownPage } from '../paging';
import type { AccountStore } from '../store/crm-store';
import type { EventRecorder } from '../webhooks/event-recorder';
import { recordEvents } from '../webhooks/record-events';
import type { TicketDoc, TicketGroupDoc, TicketNoteDoc } from './ticket.model';
import { plainText, sanitizedHtml } from './ticket-html';
import { ticketFilter } from './ticket-filters';
import { TICKET_HTML_MAX, TICKET_NOTES_MAX, type NewTicketInput, type TicketFilterQuery, type TicketNoteInput } from './ticket.schemas';
import { ticketView } from './ticket.view';

export const ticketNotFound = (id: number) => new HttpError(404, 'ticket_not_found', `No ticket with id ${id}`);
/** The group every account starts with (the original's default help-desk group). */
export const DEFAULT_GROUP = 'Support';
/** How long a ticket waits for the contact another request is making for its requester. */
const REQUESTER_WAIT_MS = 2_000;

/** The sanitised html and its text; 400 when sanitising made it longer than it may be stored. */
function message(html: string) {
  const sanitized = sanitizedHtml(html);
  if (sanitized.length > TICKET_HTML_MAX) {
    throw validationFailed([{ field: 'html_text', message: `is longer than ${TICKET_HTML_MAX} characters once sanitised (its <, > and & escaped)` }]);
  }
  return { html_text: sanitized, plain_text: plainText(sanitized).slice(0, TICKET_HTML_MAX) };
}

/** The person named on a ticket: first word the first name, the rest the last. */
function nameProperties(name: string) {
  const [first, ...rest] = name.split(/\s+/);
  return [
    { type: 'SYSTEM' as const, name: 'first_name', value: first },
    ...(rest.length ? [{ type: 'SYSTEM' as const, name: 'last_name', value: rest.join(' ') }] : []),
  ];
}

/** Use cases on the help desk of one account: groups, tickets and their notes. */
export function ticketService(contacts: ContactService, recorder: EventRecorder) {
  const events = recordEvents<TicketDoc>(recorder, { object: 'ticket', view: (_store, doc) => ticketView(doc), read: (store, id) => store.tickets.get(id) });
  /** The Support group, made on the account's first help-desk call, once (a unique name: replicas at once make it once). */
  async function ensureGroups(store: AccountStore): Promise<void> {
    if (await store.ticketGroups.hasAny()) return;
    await store.ticketGroups.insertIfAbsent({ group_name: DEFAULT_GROUP, created_time: Date.now() });
  }

  /**
   * The contact with the requester's email; a new person (through the contact service: claims,
   * limit, contact.created) when none has it. When another request claims the email first (two
   * tickets of one new requester at once), its contact is the requester's, once it is stored.
   */
  async function requesterContact(store: AccountStore, caller: DomainUserDoc, name: string, email: string): Promise<number> {
    const found = await store.contacts.byEmailFast(email);
    if (found) return found._id;
    try {
      const made = await contacts.create(store, caller, { type: 'PERSON', properties: [...nameProperties(name), { type: 'SYSTEM', name: 'email', value: email }] });
      return made.item._id;
    } catch (err) {
      if (!(err instanceof HttpError && err.code === 'duplicate_email')) throw err;
      return retryWhileRaced(async () => (await store.contacts.byEmailFast(email))?._id, () => err, { attempts: Infinity, withinMs: REQUESTER_WAIT_MS });
    }
  }

  async function requireTicket(store: AccountStore, id: number): Promise<TicketDoc> {
    const doc = await store.tickets.get(id);
    if (!doc) throw ticketNotFound(id);
    return doc;
  }

  return {
    async groups(store: AccountStore): Promise<TicketGroupDoc[]> {
      await ensureGroups(store);
      return store.ticketGroups.list();
    },

    /** new-ticket: the requester's contact found or made, the html sanitised, the first message stored as the requester's note. */
    async create(store: AccountStore, caller: DomainUserDoc, input: NewTicketInput): Promise<TicketDoc> {
      await ensureGroups(store);
      if (!(await store.ticketGroups.exists(input.groupID))) {
        throw validationFailed([{ field: 'groupID', message: `names no group of this account (${input.groupID}); see GET /dev/api/tickets/groups` }]);
      }
      if (input.assigneeID !== undefined && !(await store.users.exists(input.assigneeID))) {
        throw validationFailed([{ field: 'assigneeID', message: `names no user of this account (${input.assigneeID})` }]);
      }
      const first = message(input.html_text);
      const contact = await requesterContact(store, caller, input.requester_name, input.requester_email);
      const now = Date.now();
      // the ticket and its first message are stored together or not at all (a 503 between them left a ticket without its message, and the client's retry a second ticket)
      const ticket = await events.created(store, () =>
        store.transaction(async () => {
          const stored = await store.tickets.insert({
            group: input.groupID,
            ...(input.assigneeID !== undefined && { assignee: input.assigneeID, assigned_time: now }),
            requester_name: input.requester_name,
            requester_email: input.requester_email,
            contact,
            subject: input.subject,
            priority: input.priority,
            status: input.status,
            html_text: first.html_text,
            first_notes_text: first.plain_text,
            last_reply_text: first.plain_text,
            cc_emails: [...new Set(input.cc_emails ?? [])],
            labels: input.labels,
            notes_count: 1,
            last_updated_by: 'REQUESTER',
            created_time: now,
            last_updated_time: now,
          });
          await store.ticketNotes.insert({ ticket: stored._id, created_by: 'REQUESTER', ...first, note_type: 'PUBLIC', created_time: now });
          return stored;
        }),
      );
      // the contact or the assignee deleted while the ticket was written: their clean-up missed this ticket
      const [contactGone, assigneeGone] = await Promise.all([
        store.contacts.existingIds([contact]).then((ids) => !ids.has(contact)),
        input.assigneeID !== undefined && store.users.exists(input.assigneeID).then((exists) => !exists),
      ]);
      if (!contactGone && !assigneeGone) return ticket;
      if (contactGone) await store.tickets.unlinkContact(contact);
      if (assigneeGone && input.assigneeID !== undefined) await store.tickets.unassign(input.assigneeID);
      return requireTicket(store, ticket._id);
    },

    get: requireTicket,

    /** DELETE: the ticket and its notes; 404 when the account has no such ticket. */
    async remove(store: AccountStore, id: number): Promise<void> {
      const removed = await events.deleted(store, id, async () => {
        if (!(await store.tickets.remove(id))) return false;
        await store.ticketNotes.removeOfTicket(id);
        return true;
      });
      if (!removed) throw ticketNotFound(id);
    },

    /** A built-in filter's page of tickets (400 naming filter_id for another id). */
    async filtered(store: AccountStore, caller: DomainUserDoc, query: TicketFilterQuery): Promise<ShownPage<TicketDoc, undefined>> {
      const filter = ticketFilter(query.filter_id);
      if (!filter) throw badRequest(`No ticket filter with id ${query.filter_id}`, [{ field: 'filter_id', message: 'must be the id of a filter of GET /dev/api/tickets/filters' }]);
      const sortKey = query.global_sort_key ?? '-last_updated_time';
      const where = { status: { $in: [...filter.statuses] }, ...(filter.mine && { assignee: caller._id }) };
      return shownAsIs(await store.tickets.page(`filter:${filter.id}:${filter.mine ? caller._id : 0}`, where, query, sortKeysOf(sortKey)));
    },

    /** The ticket's messages, oldest first (404 for a ticket the account has not). */
    async notes(store: AccountStore, ticketId: number, params: PageParams): Promise<ShownPage<TicketNoteDoc, undefined>> {
      await requireTicket(store, ticketId);
      return shownAsIs(await store.ticketNotes.ofTicket(ticketId, params));
    },

    /** POST /dev/api/notes/{ticketId}: an agent's note; answers the ticket (as the original). At most TICKET_NOTES_MAX notes a ticket. */
    async addNote(store: AccountStore, ticketId: number, input: TicketNoteInput): Promise<TicketDoc> {
      if (input.ticket_id !== undefined && input.ticket_id !== ticketId) {
        throw validationFailed([{ field: 'ticket_id', message: `must be the ticket of the path (${ticketId}) when sent` }]);
      }
      const note = message(input.html_text);
      const type = input.note_type ?? 'PUBLIC';
      const now = Date.now();
      // the note and the ticket's count and last reply are one change: ticket.updated
      let noteId = 0;
      const ticket = await events.updated(store, async () => {
        // a private note is not a reply: the ticket's last reply stays
        const counted = await store.tickets.recordNote(ticketId, TICKET_NOTES_MAX, { last_updated_time: now, ...(type === 'PUBLIC' && { last_reply_text: note.plain_text, last_updated_by: 'AGENT' as const }) });
        if (counted) noteId = (await store.ticketNotes.insert({ ticket: ticketId, created_by: 'AGENT', ...note, note_type: type, created_time: now }))._id;
        return counted;
      });
      if (!ticket) {
        await requireTicket(store, ticketId);
        throw badRequest(`A ticket holds at most ${TICKET_NOTES_MAX} notes`, [{ field: 'html_text', message: `the ticket holds ${TICKET_NOTES_MAX} notes already` }]);
      }
      // the ticket deleted meanwhile: its notes went with it, this one too
      if (!(await store.tickets.exists(ticketId))) {
        await store.ticketNotes.remove(noteId);
        throw ticketNotFound(ticketId);
      }
      return ticket;
    },
  };
}

export type TicketService = ReturnType<typeof ticketService>;
