import { HttpError, validationFailed } from '@lib/errors';
import { assertContactsExist, dropDeletedContacts } from '../contacts/contact-links';
import type { ContactService } from '../contacts/contact.service';
import { shownAsIs, type PageParams, type ShownPage } from '../paging';
import type { AccountStore } from '../store/crm-store';
import type { NoteDoc } from './note.model';
import { nowSeconds } from '../input/epoch';
import type { EventRecorder } from '../webhooks/event-recorder';
import { recordEvents } from '../webhooks/record-events';
import { noteView } from './note.view';

export interface NoteFields {
  subject: string;
  description: string;
  contacts: number[];
  deals: number[];
  /** The owning user. */
  owner: number;
}

const noteNotFound = (id: number) => new HttpError(404, 'note_not_found', `No note with id ${id}`);

/** Use cases on the notes of one account: every call takes the account's store. */
export function noteService(contacts: ContactService, recorder: EventRecorder) {
  const events = recordEvents<NoteDoc>(recorder, { object: 'note', view: (_store, doc) => noteView(doc), read: (store, id) => store.notes.get(id) });
  async function assertRelations(store: AccountStore, fields: Partial<NoteFields>, contactsField: string): Promise<void> {
    if (fields.contacts?.length) await assertContactsExist(store, fields.contacts, contactsField);
    if (fields.deals?.length && !(await store.deals.allExist(fields.deals))) {
      throw validationFailed([{ field: 'deal_ids', message: `names a deal that is not in this account (${fields.deals.join(', ')})` }]);
    }
    if (fields.owner !== undefined && !(await store.users.exists(fields.owner))) {
      throw validationFailed([{ field: 'owner_id', message: `names no user of this account (${fields.owner})` }]);
    }
  }

  /** N1, N2, deal notes: checks every related contact and deal, then writes once. */
  async function create(store: AccountStore, fields: NoteFields, contactsField = 'contact_ids'): Promise<NoteDoc> {
    await assertRelations(store, fields, contactsField);
    const now = nowSeconds();
    const doc = await events.created(store, () => store.notes.insert({ ...fields, created_time: now, updated_time: now }));
    return dropDeletedContacts(store, store.notes, doc);
  }

  return {
    create,

    /** N2: a note related to the contact with this email (400 and nothing created when none has it). */
    async createForEmail(store: AccountStore, email: string, fields: Omit<NoteFields, 'contacts' | 'deals'>): Promise<void> {
      const contact = await contacts.requireByEmail(store, email);
      await create(store, { ...fields, contacts: [contact._id], deals: [] });
    },

    /** PUT /dev/api/notes: one atomic `$set` of the sent fields (relations as whole lists). */
    async update(store: AccountStore, id: number, changes: Partial<NoteFields>, contactsField = 'contact_ids'): Promise<NoteDoc> {
      await assertRelations(store, changes, contactsField);
      const doc = await events.updated(store, () => store.notes.update(id, changes));
      if (!doc) throw noteNotFound(id);
      return dropDeletedContacts(store, store.notes, doc);
    },

    /** N3. */
    ofContact: async (store: AccountStore, contactId: number, params: PageParams): Promise<ShownPage<NoteDoc, undefined>> => shownAsIs(await store.notes.ofContact(contactId, params)),

    /** GET /dev/api/opportunity/{id}/notes. */
    ofDeal: async (store: AccountStore, dealId: number, params: PageParams): Promise<ShownPage<NoteDoc, undefined>> => shownAsIs(await store.notes.ofDeal(dealId, params)),

    /**
     * notes/bulk: deletes the listed notes of the account whatever they relate (as the original), and
     * takes them out of the tasks that relate them; ids of no note of the account are skipped.
     */
    async removeMany(store: AccountStore, ids: number[]): Promise<void> {
      // one note.deleted per note deleted, each as it was
      await recorder.withEvents(store, ['note.deleted'], async (tx) => {
        const before = tx.heard('note.deleted') ? await store.notes.byIds([...new Set(ids)]) : [];
        const deleted = await store.notes.removeMany([...new Set(ids)]);
        if (deleted.length) await store.tasks.removeNotes(deleted);
        await tx.record(...before.flatMap((doc) => (deleted.includes(doc._id) ? [{ object: 'note' as const, action: 'deleted' as const, id: doc._id, data: noteView(doc) }] : [])));
      });
    },

    /** N4: removes only the relation; the note stays. */
    async unrelate(store: AccountStore, contactId: number, noteId: number): Promise<void> {
      await recorder.withEvents(store, ['note.updated'], async (tx) => {
        // reported only when the note held the contact (read only when a webhook listens)
        const held = tx.heard('note.updated') && (await store.notes.get(noteId))?.contacts.includes(contactId);
        await store.notes.unrelate(noteId, contactId);
        const after = held ? await store.notes.get(noteId) : null;
        if (after) await tx.record({ object: 'note', action: 'updated', id: noteId, data: noteView(after) });
      });
    },
  };
}

export type NoteService = ReturnType<typeof noteService>;
