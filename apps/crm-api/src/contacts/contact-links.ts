import { validationFailed } from '@lib/errors';
import { z } from '@lib/validation';
import { idField } from '../input/fields';
import type { ForAccount } from '../store/account-scope';
import type { ContactPresenter } from './contact.presenter';
import type { ContactRepository } from './contact.repository';
import type { ContactView } from './contact.view';

/** Contacts one note, task, event or deal relates (tasks, events and deals show each in full: see page-budget.ts). */
export const MAX_RELATED_CONTACTS = 10;
/** Other records one record relates by id (notes of a task, deals of a note). */
export const MAX_LINKS = 100;

/**
 * Related contacts on write: ids as numbers or digit strings, or contact objects as a response
 * returned them (their `id` is used), so a fetched record can be sent back unchanged.
 */
export const contactIdList = z
  .array(z.union([idField, z.object({ id: idField }).transform((contact) => contact.id)], 'must be a contact id or a contact object with an id'))
  .max(MAX_RELATED_CONTACTS, `at most ${MAX_RELATED_CONTACTS} contacts`)
  .transform((ids) => [...new Set(ids)]);

/** Ids of other records of the account (notes of a task, deals of a note): numbers or digit strings. */
export const idList = (what: string) =>
  z
    .array(idField)
    .max(MAX_LINKS, `at most ${MAX_LINKS} ${what}`)
    .transform((ids) => [...new Set(ids)]);

/** A record that relates contacts by id in its `contacts` field. */
interface LinksContacts {
  _id: number;
  account: number;
  contacts: number[];
}

/** The repository of records that relate contacts: it takes contact ids out of them (of one record, or of all). */
export interface RelatesContacts {
  removeContacts(contactIds: number[], recordId?: number): Promise<void>;
}

/** Checks, loads and cleans up the contacts that notes, tasks and events relate. */
export function contactLinks(contacts: ForAccount<ContactRepository>, present: ContactPresenter) {
  const existing = (account: number, ids: number[]) => contacts(account).existingIds(ids);

  return {
    /** 400 naming every id that is not a contact of the account (another account's look missing). */
    async assertExist(account: number, ids: number[], field: string): Promise<void> {
      const found = await existing(account, ids);
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length) throw validationFailed([{ field, message: `names no contact of this account (${missing.join(', ')})` }]);
    },

    /**
     * After a record was written with contact ids: a contact deleted between the check and the
     * write was missed by its delete's clean-up, so remove its id now, as that clean-up would have.
     */
    async dropDeleted<T extends LinksContacts>(records: RelatesContacts, doc: T): Promise<T> {
      const found = await existing(doc.account, doc.contacts);
      const gone = doc.contacts.filter((id) => !found.has(id));
      if (gone.length === 0) return doc;
      await records.removeContacts(gone, doc._id);
      return { ...doc, contacts: doc.contacts.filter((id) => found.has(id)) };
    },

    /** Full contact views (with owners) of every contact the records relate, loaded in two queries. */
    async views(account: number, records: Array<{ contacts: number[] }>): Promise<Map<number, ContactView>> {
      const ids = [...new Set(records.flatMap((r) => r.contacts))];
      if (ids.length === 0) return new Map();
      const docs = await contacts(account).byIds(ids);
      const views = await present.many(docs);
      return new Map(views.map((view) => [view.id, view]));
    },
  };
}

export type ContactLinks = ReturnType<typeof contactLinks>;

/** Contact views of one record, in its order, skipping any contact that no longer exists. */
export const contactsOf = (record: { contacts: number[] }, views: Map<number, ContactView>): ContactView[] =>
  record.contacts.flatMap((id) => views.get(id) ?? []);

/**
 * Notes and events take related contacts under `contact_ids` (request samples) or `contacts` (the
 * field's name in responses); sending both is ambiguous and refused.
 */
export function sentContactIds(body: { contact_ids?: number[]; contacts?: number[] }): number[] | undefined {
  if (body.contact_ids && body.contacts) {
    throw validationFailed([{ field: 'contacts', message: 'send the related contacts as contact_ids or as contacts, not both' }]);
  }
  return body.contact_ids ?? body.contacts;
}
