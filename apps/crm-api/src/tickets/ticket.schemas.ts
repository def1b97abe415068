import { xmlRoot } from '@lib/routing';
import { pathId, queryEnum, queryInt, text, z } from '@lib/validation';
import { idField } from '../input/fields';
import { pageParams, wholeListQuery as wholeList } from '../paging';
import { NOTE_TYPES, TICKET_PRIORITIES, TICKET_STATUSES } from './ticket.model';

/** Bounds (apps/crm-api/README.md, "Documents and help-desk tickets"; docs/RESILIENCE.md, "Bounds"). */
export const REQUESTER_NAME_MAX = 100;
export const EMAIL_MAX = 254;
export const TICKET_SUBJECT_MAX = 1_000;
/** A message's html as sent, and as stored once sanitised (64 Ki characters). */
export const TICKET_HTML_MAX = 65_536;
export const CC_EMAILS_MAX = 20;
export const LABELS_MAX = 20;
export const LABEL_MAX = 50;
/** Notes (messages) of one ticket, its first message included. */
export const TICKET_NOTES_MAX = 1_000;
/** Default tickets per page of a filter (GET /dev/api/tickets/filter). */
export const TICKET_PAGE_SIZE = 25;

const email = z.string().max(EMAIL_MAX, `must be at most ${EMAIL_MAX} characters`).pipe(z.email('must be an email address'));
const html = text({ max: TICKET_HTML_MAX, description: `HTML; sanitised before it is stored (allowed tags and attributes only). At most ${TICKET_HTML_MAX} characters, sent and stored.` });

/** POST /dev/api/tickets/new-ticket: the original's fields, all required but `cc_emails`, `labels` and `assigneeID`. */
export const newTicketInput = xmlRoot(
  z.strictObject({
    requester_name: text({ max: REQUESTER_NAME_MAX }).transform((name) => name.trim()),
    requester_email: email.meta({ description: 'The contact with this email is the ticket\'s contact; made (a person, owned by the caller) when none has it' }),
    subject: text({ max: TICKET_SUBJECT_MAX }),
    priority: z.enum(TICKET_PRIORITIES),
    status: z.enum(TICKET_STATUSES),
    groupID: idField.meta({ description: 'A group of the account (GET /dev/api/tickets/groups)' }),
    html_text: html,
    cc_emails: z.array(email).max(CC_EMAILS_MAX, `at most ${CC_EMAILS_MAX} emails`).nullable().optional(),
    labels: z
      .array(text({ max: LABEL_MAX }))
      .max(LABELS_MAX, `at most ${LABELS_MAX} labels`)
      .nullable()
      .optional()
      .transform((labels) => [...new Set(labels ?? [])]),
    assigneeID: idField.optional().meta({ description: 'A user of the account to assign the ticket to (default: none, the group only)' }),
  }),
  'ticket',
);
export type NewTicketInput = z.output<typeof newTicketInput>;

/** POST /dev/api/notes/{ticketId}. */
export const ticketNoteInput = xmlRoot(
  z.strictObject({
    ticket_id: idField.optional().meta({ description: 'The ticket of the path, when sent' }),
    html_text: html,
    note_type: z.enum(NOTE_TYPES).optional().meta({ description: 'PUBLIC (a reply the requester sees; default) or PRIVATE (agents only)' }),
  }),
  'ticketNote',
);
export type TicketNoteInput = z.output<typeof ticketNoteInput>;

/** `global_sort_key` of the filter pages: a field, `-` in front for newest first. */
export const TICKET_SORT_KEYS = ['created_time', '-created_time', 'last_updated_time', '-last_updated_time'] as const;
export type TicketSortKey = (typeof TICKET_SORT_KEYS)[number];

export const ticketFilterQuery = z.strictObject({
  filter_id: queryInt({ min: 1, max: Number.MAX_SAFE_INTEGER, description: 'A filter of GET /dev/api/tickets/filters' }),
  ...pageParams(TICKET_PAGE_SIZE),
  global_sort_key: queryEnum(TICKET_SORT_KEYS)
    .optional()
    .meta({ description: 'Order: created_time or last_updated_time, `-` in front for newest first (default -last_updated_time). A cursor holds the order it was issued for: send the same key with it.' }),
});
export type TicketFilterQuery = z.output<typeof ticketFilterQuery>;

export const ticketParams = z.strictObject({ id: pathId });
export const ticketNotesParams = z.strictObject({ ticketId: pathId });
export const wholeListQuery = wholeList;
