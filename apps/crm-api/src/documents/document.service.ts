import { HttpError, validationFailed } from '@lib/errors';
import { assertContactsExist, dropDeletedContacts } from '../contacts/contact-links';
import { nowSeconds } from '../input/epoch';
import { shownAsIs, type PageParams, type ShownPage } from '../paging';
import type { AccountStore } from '../store/crm-store';
import type { EventRecorder } from '../webhooks/event-recorder';
import { recordEvents } from '../webhooks/record-events';
import type { DocumentDoc } from './document.model';
import type { DocumentInput } from './document.schemas';
import { documentView } from './document.view';

export const documentNotFound = (id: number) => new HttpError(404, 'document_not_found', `No document with id ${id}`);

/** The fields of a document a POST or PUT body gives (defaults for those not sent). */
type Sent = Omit<DocumentInput, 'id' | 'uploaded_time' | 'updated_time' | 'entity_type' | 'count' | 'cursor'>;

/** The last segment of the url's path (decoded when it can be), else its host: a name for a document sent without one. */
export function nameFromUrl(url: string): string {
  const { pathname, hostname } = new URL(url);
  const last = pathname.split('/').filter(Boolean).pop();
  if (!last) return hostname;
  try {
    return decodeURIComponent(last).slice(0, 250) || hostname;
  } catch {
    return last.slice(0, 250);
  }
}

function fieldsOf(input: Sent) {
  return {
    name: input.name?.trim() ?? nameFromUrl(input.url),
    url: input.url,
    doc_type: input.doc_type ?? 'ATTACHMENT',
    network_type: input.network_type ?? 'OTHER',
    ...(input.extension !== undefined && { extension: input.extension }),
    ...(input.size !== undefined && { size: input.size }),
    contacts: input.contact_ids ?? [],
    deals: input.deal_ids ?? [],
  } as const;
}

/** Use cases on the documents (links with metadata) of one account. */
export function documentService(recorder: EventRecorder) {
  const events = recordEvents<DocumentDoc>(recorder, { object: 'document', view: (_store, doc) => documentView(doc), read: (store, id) => store.documents.get(id) });
  async function assertRelations(store: AccountStore, fields: { contacts: number[]; deals: number[]; owner?: number }): Promise<void> {
    if (fields.contacts.length) await assertContactsExist(store, fields.contacts, 'contact_ids');
    if (fields.deals.length && !(await store.deals.allExist(fields.deals))) {
      throw validationFailed([{ field: 'deal_ids', message: `names a deal that is not in this account (${fields.deals.join(', ')})` }]);
    }
    if (fields.owner !== undefined && !(await store.users.exists(fields.owner))) {
      throw validationFailed([{ field: 'owner_id', message: `names no user of this account (${fields.owner})` }]);
    }
  }

  /** A contact or deal deleted between the check and the write was missed by its delete's clean-up: take it out now, as that clean-up would have. */
  async function dropDeleted(store: AccountStore, doc: DocumentDoc): Promise<DocumentDoc> {
    const checked = await dropDeletedContacts(store, store.documents, doc);
    if (checked.deals.length === 0) return checked;
    const found = new Set((await store.deals.byIds(checked.deals)).map((deal) => deal._id));
    const gone = checked.deals.filter((id) => !found.has(id));
    if (gone.length === 0) return checked;
    await store.documents.removeDeals(gone, checked._id);
    return { ...checked, deals: checked.deals.filter((id) => found.has(id)) };
  }

  return {
    /** POST: a new document of the caller (or of `owner_id`). */
    async create(store: AccountStore, caller: number, input: Sent): Promise<DocumentDoc> {
      const fields = { ...fieldsOf(input), owner: input.owner_id ?? caller };
      await assertRelations(store, fields);
      const now = nowSeconds();
      return dropDeleted(store, await events.created(store, () => store.documents.insert({ ...fields, uploaded_time: now, updated_time: now })));
    },

    /** PUT: the whole document replaced (fields not sent take their defaults, as the original's save); the owner kept unless sent. */
    async replace(store: AccountStore, id: number, input: Sent): Promise<DocumentDoc> {
      const fields = { ...fieldsOf(input), ...(input.owner_id !== undefined && { owner: input.owner_id }) };
      await assertRelations(store, fields);
      const unset = (['extension', 'size'] as const).filter((field) => input[field] === undefined);
      const doc = await events.updated(store, () => store.documents.update(id, { ...fields, updated_time: nowSeconds() }, unset));
      if (!doc) throw documentNotFound(id);
      return dropDeleted(store, doc);
    },

    async get(store: AccountStore, id: number): Promise<DocumentDoc> {
      const doc = await store.documents.get(id);
      if (!doc) throw documentNotFound(id);
      return doc;
    },

    /** DELETE: 204 either way (as the other deletes of crm). */
    async remove(store: AccountStore, id: number): Promise<void> {
      await events.deleted(store, id, async () => (await store.documents.remove(id)) !== null);
    },

    /** The contact's documents, oldest first ([] for an id no contact of the account has). */
    ofContact: async (store: AccountStore, contactId: number, params: PageParams): Promise<ShownPage<DocumentDoc, undefined>> => shownAsIs(await store.documents.ofContact(contactId, params)),
  };
}

export type DocumentService = ReturnType<typeof documentService>;
