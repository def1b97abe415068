import { isDuplicateKey } from '@lib/mongo';
import type { SortKey } from '@lib/paging';
import type { Page, PageParams } from '../paging';
import type { AccountScope, ScopedFilter } from '../store/account-scope';
import type { TicketDoc, TicketGroupDoc, TicketNoteDoc } from './ticket.model';

/** The help-desk tickets of one account. */
export function ticketRepository(scope: AccountScope<TicketDoc>) {
  return {
    get: (id: number) => scope.get(id),
    insert: (fields: Omit<TicketDoc, '_id' | 'account'>) => scope.insert((id) => ({ _id: id, ...fields })),
    remove: (id: number) => scope.takeOne({ _id: id }),
    exists: (id: number) => scope.exists({ _id: id }),
    /** A page of the tickets matching a filter's conditions, in `order`. */
    page: (key: string, filter: ScopedFilter, params: PageParams, order: SortKey[]): Promise<Page<TicketDoc>> => scope.page(key, filter, params, order),
    /**
     * Takes one of the ticket's note slots and records the reply, atomically: null when there is no
     * such ticket or it holds `max` notes already.
     */
    recordNote: (id: number, max: number, changes: Pick<TicketDoc, 'last_updated_time'> & Partial<Pick<TicketDoc, 'last_reply_text' | 'last_updated_by'>>) =>
      scope.findOneAndUpdate({ _id: id, notes_count: { $lt: max } }, { $inc: { notes_count: 1 }, $set: changes }, 'after'),
    /** Gives back a note slot taken for a note that was not written. */
    releaseNote: (id: number) => scope.updateOne({ _id: id, notes_count: { $gt: 0 } }, { $inc: { notes_count: -1 } }),
    /** A deleted contact leaves the tickets it requested (the tickets stay, with the requester's name and email). */
    unlinkContact: (contactId: number) => scope.updateMany({ contact: contactId }, { $unset: { contact: 1 } }),
    /** A removed user is no longer the assignee of any ticket (each stays assigned to its group). */
    unassign: (userId: number) => scope.updateMany({ assignee: userId }, { $unset: { assignee: 1, assigned_time: 1 } }),
  };
}
export type TicketRepository = ReturnType<typeof ticketRepository>;

/** The help-desk groups of one account. */
export function ticketGroupRepository(scope: AccountScope<TicketGroupDoc>) {
  return {
    list: () => scope.find().sort({ _id: 1 }),
    exists: (id: number) => scope.exists({ _id: id }),
    /** Inserts unless the account has a group of that name (made by another request meanwhile). */
    insertIfAbsent: (fields: Omit<TicketGroupDoc, '_id' | 'account'>) =>
      scope.insert((id) => ({ _id: id, ...fields })).then(
        () => true,
        (err: unknown) => {
          if (isDuplicateKey(err)) return false;
          throw err;
        },
      ),
    hasAny: () => scope.exists({}),
  };
}
export type TicketGroupRepository = ReturnType<typeof ticketGroupRepository>;

const BY_CREATION: SortKey[] = [
  { field: 'created_time', direction: 1 },
  { field: '_id', direction: 1 },
];

/** The notes (messages) of the account's tickets. */
export function ticketNoteRepository(scope: AccountScope<TicketNoteDoc>) {
  return {
    insert: (fields: Omit<TicketNoteDoc, '_id' | 'account'>) => scope.insert((id) => ({ _id: id, ...fields })),
    remove: (id: number) => scope.deleteOne({ _id: id }),
    ofTicket: (ticketId: number, params: PageParams): Promise<Page<TicketNoteDoc>> => scope.page(`ticket:${ticketId}`, { ticket: ticketId }, params, BY_CREATION),
    removeOfTicket: (ticketId: number) => scope.deleteMany({ ticket: ticketId }),
  };
}
export type TicketNoteRepository = ReturnType<typeof ticketNoteRepository>;
