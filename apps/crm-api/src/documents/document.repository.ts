import type { SortKey } from '@lib/paging';
import type { Page, PageParams } from '../paging';
import type { AccountScope, Changes } from '../store/account-scope';
import type { DocumentDoc } from './document.model';

/** Documents of a contact: oldest first. */
const BY_UPLOAD: SortKey[] = [
  { field: 'uploaded_time', direction: 1 },
  { field: '_id', direction: 1 },
];

/** The documents of one account. */
export function documentRepository(scope: AccountScope<DocumentDoc>) {
  return {
    get: (id: number) => scope.get(id),
    insert: (fields: Omit<DocumentDoc, '_id' | 'account'>) => scope.insert((id) => ({ _id: id, ...fields })),
    /** One atomic `$set`; null when there is no such document. */
    update: (id: number, changes: Changes<DocumentDoc>, unset: Array<'extension' | 'size'>) =>
      scope.findOneAndUpdate({ _id: id }, { $set: changes, ...(unset.length && { $unset: Object.fromEntries(unset.map((field) => [field, 1])) }) }, 'after'),
    remove: (id: number) => scope.takeOne({ _id: id }),
    ofContact: (contactId: number, params: PageParams): Promise<Page<DocumentDoc>> => scope.page(`contact:${contactId}`, { contacts: contactId }, params, BY_UPLOAD),
    countOwnedBy: (owner: number) => scope.count({ owner }),
    /** Takes the contacts out of the document `recordId`, or of every document; each changed atomically. */
    removeContacts: (contactIds: number[], recordId?: number) => scope.removeFromLists(recordId === undefined ? {} : { _id: recordId }, 'contacts', contactIds),
    /** Deleted deals leave every document (each changed atomically). */
    removeDeals: (dealIds: number[], recordId?: number) => scope.removeFromLists(recordId === undefined ? {} : { _id: recordId }, 'deals', dealIds),
  };
}

export type DocumentRepository = ReturnType<typeof documentRepository>;
