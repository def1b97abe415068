import { HttpError, validationFailed } from '@lib/errors';
import type { AccountService } from '../accounts/account.service';
import type { ContactLinks } from '../contacts/contact-links';
import type { CrmPager, Page } from '../paging';
import type { ForAccount } from '../store/account-scope';
import type { NoteDoc } from './note.model';
import type { NoteRepository } from './note.repository';
import { nowSeconds } from '../input/epoch';

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

export function noteService(notes: ForAccount<NoteRepository>, options: { pager: CrmPager; links: ContactLinks; dealsExist: DealsExist; accounts: AccountService }) {
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
      const doc = await notes(account).insert({ ...fields, created_time: now, updated_time: now });
      return links.dropDeleted(notes(account), doc);
    },

    /** PUT /dev/api/notes: one atomic `$set` of the sent fields (relations as whole lists). */
    async update(account: number, id: number, changes: Partial<NoteFields>, contactsField = 'contact_ids'): Promise<NoteDoc> {
      await assertRelations(account, changes, contactsField);
      const doc = await notes(account).update(id, changes);
      if (!doc) throw noteNotFound(id);
      return links.dropDeleted(notes(account), doc);
    },

    /** N3. */
    ofContact: (account: number, contactId: number, params: { page_size: number; cursor?: string }): Promise<Page<NoteDoc>> =>
      notes(account).ofContact(pager, contactId, params),

    /** GET /dev/api/opportunity/{id}/notes. */
    ofDeal: (account: number, dealId: number, params: { page_size: number; cursor?: string }): Promise<Page<NoteDoc>> =>
      notes(account).ofDeal(pager, dealId, params),

    /** N4: removes only the relation; the note stays. */
    async unrelate(account: number, contactId: number, noteId: number): Promise<void> {
      await notes(account).unrelate(noteId, contactId);
    },
  };
}

export type NoteService = ReturnType<typeof noteService>;
