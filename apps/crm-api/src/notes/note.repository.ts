import type { Page, PageParams } from '../paging';
import type { AccountScope, Changes } from '../store/account-scope';
import type { NoteDoc } from './note.model';
import { nowSeconds } from '../input/epoch';

/** The notes of one account. */
export function noteRepository(scope: AccountScope<NoteDoc>) {
  return {
    get: (id: number) => scope.get(id),
    insert: (fields: Omit<NoteDoc, '_id' | 'account'>) => scope.insert((id) => ({ _id: id, ...fields })),
    /** One atomic `$set`; null when there is no such note. */
    update: (id: number, changes: Changes<NoteDoc>) => scope.findOneAndUpdate({ _id: id }, { $set: { ...changes, updated_time: nowSeconds() } }, 'after'),

    ofContact: (contactId: number, params: PageParams): Promise<Page<NoteDoc>> => scope.page(`contact:${contactId}`, { contacts: contactId }, params),
    ofDeal: (dealId: number, params: PageParams): Promise<Page<NoteDoc>> => scope.page(`deal:${dealId}`, { deals: dealId }, params),
    /** Id and deals of the oldest `limit` notes of any of the deals (a driver read: a page of deals shows them). */
    ofDeals: (dealIds: number[], limit: number) =>
      scope.driverFind<Pick<NoteDoc, '_id' | 'deals'>>({ deals: { $in: dealIds } }, { projection: { deals: 1 }, sort: { created_time: 1, _id: 1 }, limit }),

    byIds: (ids: number[]) => scope.find({ _id: { $in: ids } }),
    /** Deletes the notes among `ids`; answers the ids deleted (those of the account). */
    async removeMany(ids: number[]): Promise<number[]> {
      const found = (await scope.find<{ _id: number }>({ _id: { $in: ids } }, { _id: 1 })).map((note) => note._id);
      if (found.length) await scope.deleteMany({ _id: { $in: found } });
      return found;
    },
    /** Whether every id names a note. */
    allExist: async (ids: number[]) => (await scope.count({ _id: { $in: ids } })) === ids.length,
    countOwnedBy: (owner: number) => scope.count({ owner }),

    /** Takes the contacts out of the note `recordId`, or of every note; each note changed atomically. */
    removeContacts: (contactIds: number[], recordId?: number) =>
      scope.removeFromLists(recordId === undefined ? {} : { _id: recordId }, 'contacts', contactIds),
    /** N4: the contact leaves the note, which records the change. */
    unrelate: (noteId: number, contactId: number) => scope.removeFromLists({ _id: noteId }, 'contacts', [contactId], { updated_time: nowSeconds() }),
    /** Deleted deals leave every note, in one pass (each note changed atomically). */
    removeDeals: (dealIds: number[]) => scope.removeFromLists({}, 'deals', dealIds),
  };
}

export type NoteRepository = ReturnType<typeof noteRepository>;
