import { readBatchFor, SENT_BYTES_PER_CHAR, STORED_BYTES_PER_CHAR } from '../http/page-budget';
import { listNames, type ListAnswer } from '../http/page-reply';
import type { TicketDoc, TicketNoteDoc } from './ticket.model';
import { ticketListOutput, ticketNoteListOutput } from './ticket.outputs';
import { CC_EMAILS_MAX, EMAIL_MAX, LABEL_MAX, LABELS_MAX, REQUESTER_NAME_MAX, TICKET_HTML_MAX, TICKET_SUBJECT_MAX } from './ticket.schemas';
import { ticketNoteView, ticketView, type TicketNoteView, type TicketView } from './ticket.view';

/**
 * A ticket at its bounds: its html (stored at most TICKET_HTML_MAX once sanitised) and the plain
 * text of its first and last messages (each at most as long), subject, requester, cc and labels.
 */
const TICKET_TEXT = 3 * TICKET_HTML_MAX + TICKET_SUBJECT_MAX + REQUESTER_NAME_MAX + EMAIL_MAX * (CC_EMAILS_MAX + 1) + LABEL_MAX * LABELS_MAX;
export const TICKET_WORST_BYTES = {
  sent: SENT_BYTES_PER_CHAR * TICKET_TEXT + 2048,
  stored: STORED_BYTES_PER_CHAR * TICKET_TEXT + 2048,
} as const;
/** A note: its html and its plain text. */
export const TICKET_NOTE_WORST_BYTES = {
  sent: SENT_BYTES_PER_CHAR * 2 * TICKET_HTML_MAX + 1024,
  stored: STORED_BYTES_PER_CHAR * 2 * TICKET_HTML_MAX + 1024,
} as const;

export const TICKET_PAGE: ListAnswer<TicketDoc, undefined, TicketView> = {
  reading: { readBatch: readBatchFor(TICKET_WORST_BYTES.stored) },
  view: (docs) => docs.map(ticketView),
  xml: listNames(ticketListOutput),
};

export const TICKET_NOTE_PAGE: ListAnswer<TicketNoteDoc, undefined, TicketNoteView> = {
  reading: { readBatch: readBatchFor(TICKET_NOTE_WORST_BYTES.stored) },
  view: (docs) => docs.map(ticketNoteView),
  xml: listNames(ticketNoteListOutput),
};
