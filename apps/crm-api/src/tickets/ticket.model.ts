import { insertTokenField } from '@lib/mongo';
import { Schema, type Connection, type Model } from 'mongoose';

/** The original's ticket statuses, priorities and note types (Tickets.Status, Priority; TicketNotes.NOTE_TYPE). */
export const TICKET_STATUSES = ['NEW', 'OPEN', 'PENDING', 'CLOSED'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export const TICKET_PRIORITIES = ['LOW', 'MEDIUM', 'HIGH'] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];
export const NOTE_TYPES = ['PUBLIC', 'PRIVATE'] as const;
export type TicketNoteType = (typeof NOTE_TYPES)[number];
/** Who wrote a ticket's note: the requester (the ticket's first message) or an agent (a user, through the API). */
export const NOTE_AUTHORS = ['REQUESTER', 'AGENT'] as const;

export interface TicketDoc {
  _id: number;
  account: number;
  group: number;
  /** The user the ticket is assigned to; absent when only its group is. */
  assignee?: number;
  assigned_time?: number;
  requester_name: string;
  requester_email: string;
  /** The contact with the requester's email (made when none had it); absent once that contact is deleted. */
  contact?: number;
  subject: string;
  priority: TicketPriority;
  status: TicketStatus;
  /** Sanitised html of the first message. */
  html_text: string;
  first_notes_text: string;
  last_reply_text: string;
  cc_emails: string[];
  labels: string[];
  notes_count: number;
  /** Who wrote the last message: the requester (the first) or an agent (a note through the API). */
  last_updated_by: 'REQUESTER' | 'AGENT';
  /** epoch milliseconds, as the original's tickets. */
  created_time: number;
  last_updated_time: number;
}

const ticketSchema = new Schema<TicketDoc>(
  {
    _id: { type: Number, required: true },
    ...insertTokenField,
    account: { type: Number, required: true },
    group: { type: Number, required: true },
    assignee: Number,
    assigned_time: Number,
    requester_name: { type: String, required: true },
    requester_email: { type: String, required: true },
    contact: Number,
    subject: { type: String, required: true },
    priority: { type: String, required: true },
    status: { type: String, required: true },
    html_text: { type: String, default: '' },
    first_notes_text: { type: String, default: '' },
    last_reply_text: { type: String, default: '' },
    cc_emails: { type: [String], default: [] },
    labels: { type: [String], default: [] },
    notes_count: { type: Number, default: 0 },
    last_updated_by: { type: String, required: true },
    created_time: { type: Number, required: true },
    last_updated_time: { type: Number, required: true },
  },
  { versionKey: false },
);
// the filters' pages (GET /dev/api/tickets/filter) in each global_sort_key
ticketSchema.index({ account: 1, status: 1, last_updated_time: 1, _id: 1 });
ticketSchema.index({ account: 1, status: 1, created_time: 1, _id: 1 });
ticketSchema.index({ account: 1, assignee: 1, last_updated_time: 1, _id: 1 }); // My Tickets; user removal
ticketSchema.index({ account: 1, assignee: 1, created_time: 1, _id: 1 });
ticketSchema.index({ account: 1, contact: 1 }); // contact deletion clears the link

export function ticketModel(connection: Connection): Model<TicketDoc> {
  return connection.models.Ticket ?? connection.model<TicketDoc>('Ticket', ticketSchema, 'tickets');
}

export interface TicketGroupDoc {
  _id: number;
  account: number;
  group_name: string;
  created_time: number;
}

const groupSchema = new Schema<TicketGroupDoc>(
  {
    _id: { type: Number, required: true },
    ...insertTokenField,
    account: { type: Number, required: true },
    group_name: { type: String, required: true },
    created_time: { type: Number, required: true },
  },
  { versionKey: false },
);
// one group per name, so replicas making the default Support group at once make it once
groupSchema.index({ account: 1, group_name: 1 }, { unique: true });

export function ticketGroupModel(connection: Connection): Model<TicketGroupDoc> {
  return connection.models.TicketGroup ?? connection.model<TicketGroupDoc>('TicketGroup', groupSchema, 'ticket_groups');
}

export interface TicketNoteDoc {
  _id: number;
  account: number;
  ticket: number;
  created_by: (typeof NOTE_AUTHORS)[number];
  html_text: string;
  plain_text: string;
  note_type: TicketNoteType;
  created_time: number;
}

const noteSchema = new Schema<TicketNoteDoc>(
  {
    _id: { type: Number, required: true },
    ...insertTokenField,
    account: { type: Number, required: true },
    ticket: { type: Number, required: true },
    created_by: { type: String, required: true },
    html_text: { type: String, default: '' },
    plain_text: { type: String, default: '' },
    note_type: { type: String, required: true },
    created_time: { type: Number, required: true },
  },
  { versionKey: false },
);
noteSchema.index({ account: 1, ticket: 1, created_time: 1, _id: 1 }); // a ticket's notes, oldest first; deleted with the ticket

export function ticketNoteModel(connection: Connection): Model<TicketNoteDoc> {
  return connection.models.TicketNote ?? connection.model<TicketNoteDoc>('TicketNote', noteSchema, 'ticket_notes');
}
