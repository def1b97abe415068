import type { TicketStatus } from './ticket.model';

export interface FilterCondition {
  LHS: string;
  CONDITION: string;
  RHS: string;
}

/** A built-in filter: its conditions as the original lists them, and what they select. */
export interface TicketFilter {
  id: number;
  name: string;
  conditions: FilterCondition[];
  statuses: readonly TicketStatus[];
  /** Only the caller's tickets (the original's `assignee_id EQUALS 0`). */
  mine: boolean;
}

const statusIs = (status: TicketStatus): FilterCondition => ({ LHS: 'status', CONDITION: 'TICKET_STATUS_IS', RHS: status });
const ALL: readonly TicketStatus[] = ['NEW', 'OPEN', 'PENDING', 'CLOSED'];

/**
 * The built-in filters every account has (the original makes these defaults per user, with ids of
 * its own; here their ids are the same in every account). "All Tickets", "New Tickets" and "My
 * Tickets" carry the original's conditions; the others follow them.
 */
export const TICKET_FILTERS: readonly TicketFilter[] = [
  { id: 1, name: 'All Tickets', conditions: ALL.map(statusIs), statuses: ALL, mine: false },
  { id: 2, name: 'New Tickets', conditions: [statusIs('NEW')], statuses: ['NEW'], mine: false },
  { id: 3, name: 'Open Tickets', conditions: [statusIs('OPEN')], statuses: ['OPEN'], mine: false },
  { id: 4, name: 'Pending Tickets', conditions: [statusIs('PENDING')], statuses: ['PENDING'], mine: false },
  { id: 5, name: 'Closed Tickets', conditions: [statusIs('CLOSED')], statuses: ['CLOSED'], mine: false },
  { id: 6, name: 'My Tickets', conditions: [{ LHS: 'assignee_id', CONDITION: 'EQUALS', RHS: '0' }], statuses: ALL, mine: true },
];

export const ticketFilter = (id: number) => TICKET_FILTERS.find((filter) => filter.id === id);
