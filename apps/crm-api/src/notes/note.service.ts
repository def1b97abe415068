import { HttpError, validationFailed } from '@lib/errors';
import { idSequence, insertWithSequenceId, removeFromLists } from '@lib/mongo';
import type { Connection } from 'mongoose';
import type { AccountService } from '../accounts/account.service';
import type { ContactLinks } from '../contact-links';
import type { CrmPager } from '../paging';
import type { Page } from '../paging';
import { noteModel, type NoteDoc } from './note.model';
import { nowSeconds } from '../epoch';

/** True when every id names a deal of the account. */
export type DealsExist = (account: number, ids: number[]) => Promise<boolean>;

export interface NoteFields {
  subject: string;
  description: string;
  contacts: number[];
  deals: number[];
  /** The owning user. */
  owner: number;
}

const noteNotFound = (id: number) => new HttpError(404, 'note_not_found', `No note with id ${id}`);

export function noteService(connection: Connection, options: { pager: CrmPager; links: ContactLinks; dealsExist: DealsExist; accounts: AccountService }) {
  const Note = noteModel(connection);
  const ids = idSequence(connection, 'notes');
  const { links, pager } = options;

  async function assertRelations(account: number, fields: Partial<NoteFields>, contactsField: string): Promise<void> {
    if (fields.contacts?.length) await links.assertExist(account, fields.contacts, contactsField);
    if (fields.deals?.length && !(await options.dealsExist(account, fields.deals))) {
      throw validationFailed([{ field: 'deal_ids', message: `names a deal that is not in this account (${fields.deals.join(', ')})` }]);
    }
    if (fields.owner !== undefined && (await options.accounts.usersById(account, [fields.owner])).length === 0) {
      throw validationFailed([{ field: 'owner_id', message: `names no user of this account (${fields.owner})` }]);
    }
  }

  return {
    /** N1, N2, deal notes: checks every related contact and deal, then writes once. */
    async create(account: number, fields: NoteFields, contactsField = 'contact_ids'): Promise<NoteDoc> {
      await assertRelations(account, fields, contactsField);
      const now = nowSeconds();
      const doc = await insertWithSequenceId(Note, ids, (id) => ({ _id: id, account, ...fields, created_time: now, updated_time: now }) as NoteDoc);
      return links.dropDeleted(Note, doc);
    },

    /** PUT /dev/api/notes: one atomic `$set` of the sent fields (relations as whole lists). */
    async update(account: number, id: number, changes: Partial<NoteFields>, contactsField = 'contact_ids'): Promise<NoteDoc> {
      await assertRelations(account, changes, contactsField);
      const doc = await Note.findOneAndUpdate({ _id: id, account }, { $set: { ...changes, updated_time: nowSeconds() } }, { returnDocument: 'after' }).lean<NoteDoc>();
      if (!doc) throw noteNotFound(id);
      return links.dropDeleted(Note, doc);
    },

    /** N3. */
    ofContact: (account: number, contactId: number, params: { page_size: number; cursor?: string }): Promise<Page<NoteDoc>> =>
      pager.page(Note, { account, contacts: contactId }, params, `notes:contact:${account}:${contactId}`),

    /** GET /dev/api/opportunity/{id}/notes. */
    ofDeal: (account: number, dealId: number, params: { page_size: number; cursor?: string }): Promise<Page<NoteDoc>> =>
      pager.page(Note, { account, deals: dealId }, params, `notes:deal:${account}:${dealId}`),

    /** N4: removes only the relation; the note stays. */
    async unrelate(account: number, contactId: number, noteId: number): Promise<void> {
      await removeFromLists(Note, { _id: noteId, account }, 'contacts', [contactId], { updated_time: nowSeconds() });
    },
  };
}

export type NoteService = ReturnType<typeof noteService>;
