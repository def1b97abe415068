import { validationFailed } from '@lib/errors';
import { z } from '@lib/validation';
import { idField } from '../input/fields';
import type { DomainUserDoc } from '../accounts/domain-user.model';
import type { AccountStore } from '../store/crm-store';
import type { ContactDoc } from './contact.model';

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
  contacts: number[];
}

/** The repository of records that relate contacts: it takes contact ids out of them (of one record, or of all). */
export interface RelatesContacts {
  removeContacts(contactIds: number[], recordId?: number): Promise<void>;
}

/** Contacts with the users a view shows with them: their owners (and the owners of the records showing them). */
export interface ContactsShown {
  contacts: ContactDoc[];
  owners: DomainUserDoc[];
}

/** 400 naming every id that is not a contact of the account (another account's look missing). */
export async function assertContactsExist(store: AccountStore, ids: number[], field: string): Promise<void> {
  const found = await store.contacts.existingIds(ids);
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw validationFailed([{ field, message: `names no contact of this account (${missing.join(', ')})` }]);
}

/**
 * After a record was written with contact ids: a contact deleted between the check and the write
 * was missed by its delete's clean-up, so remove its id now, as that clean-up would have.
 */
export async function dropDeletedContacts<T extends LinksContacts>(store: AccountStore, records: RelatesContacts, doc: T): Promise<T> {
  const found = await store.contacts.existingIds(doc.contacts);
  const gone = doc.contacts.filter((id) => !found.has(id));
  if (gone.length === 0) return doc;
  await records.removeContacts(gone, doc._id);
  return { ...doc, contacts: doc.contacts.filter((id) => found.has(id)) };
}

/** The owners of `contacts` (one read; none when there are no contacts). */
export async function withOwners(store: AccountStore, contacts: ContactDoc[]): Promise<ContactsShown> {
  return { contacts, owners: contacts.length ? await store.users.byIds([...new Set(contacts.map((c) => c.owner))]) : [] };
}

/**
 * The contacts among `ids` (straight to the driver: the documents lean() gave), then their owners
 * together with the users `alsoUsers` (the owners of the records showing them): two reads at most,
 * each left out when it has nothing to read.
 */
export async function contactsShown(store: AccountStore, ids: number[], alsoUsers: number[] = []): Promise<ContactsShown> {
  const contacts = ids.length ? await store.contacts.byIdsFast([...new Set(ids)]) : [];
  const users = [...new Set([...alsoUsers, ...contacts.map((c) => c.owner)])];
  return { contacts, owners: users.length ? await store.users.byIds(users) : [] };
}

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
