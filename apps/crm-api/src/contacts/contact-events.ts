import type { DomainUserDoc } from '../accounts/domain-user.model';
import type { AccountStore } from '../store/crm-store';
import type { EventRecorder, EventTransaction } from '../webhooks/event-recorder';
import type { EventName, WebhookObject } from '../webhooks/webhook-events';
import { withOwners } from './contact-links';
import type { ContactDoc } from './contact.model';
import { contactViews } from './contact.presenter';

const CREATED: EventName[] = ['contact.created', 'company.created'];
const UPDATED: EventName[] = ['contact.updated', 'company.updated'];
const DELETED: EventName[] = ['contact.deleted', 'company.deleted'];

/** Persons are `contact.*` events, companies `company.*`. */
const objectOf = (doc: Pick<ContactDoc, 'type'>): WebhookObject => (doc.type === 'COMPANY' ? 'company' : 'contact');

/** The contacts as their GET shows them (with their owners), read in the write's transaction. */
async function viewsOf(store: AccountStore, docs: ContactDoc[]) {
  return contactViews(docs, (await withOwners(store, docs)).owners);
}

/**
 * The webhook events of contact and company writes: each runs its write in `recorder.withEvents`,
 * so the events are stored with the change or not at all. Reads that only an event needs (the
 * records after a change, a record before its delete) are made only when a webhook listens.
 */
export function contactEvents(recorder: EventRecorder) {
  /** Reports the contacts among `ids` as they are now, in the transaction (after the write). */
  async function recordUpdates(tx: EventTransaction, store: AccountStore, ids: readonly number[]): Promise<void> {
    if (!ids.length || !tx.heard(...UPDATED)) return;
    const docs = await store.contacts.byIds([...new Set(ids)]);
    const views = await viewsOf(store, docs);
    await tx.record(...docs.map((doc, i) => ({ object: objectOf(doc), action: 'updated' as const, id: doc._id, data: views[i] })));
  }

  return {
    /** A new contact of `owner`. */
    creating: (store: AccountStore, owner: DomainUserDoc, write: () => Promise<ContactDoc>): Promise<ContactDoc> =>
      recorder.withEvents(store, CREATED, async (tx) => {
        const doc = await write();
        if (tx.heard(...CREATED)) await tx.record({ object: objectOf(doc), action: 'created', id: doc._id, data: async () => (await viewsOf(store, [doc]))[0] });
        return doc;
      }),

    /** A write changing contacts: those `changed(result)` names are reported updated. */
    updating: <T>(store: AccountStore, write: () => Promise<T>, changed: (result: T) => readonly number[]): Promise<T> =>
      recorder.withEvents(store, UPDATED, async (tx) => {
        const result = await write();
        await recordUpdates(tx, store, changed(result));
        return result;
      }),

    /**
     * A write changing contacts whose changed ones are known only by reading before it (removing a
     * tag: those that held it): `before` runs first, only when a webhook listens.
     */
    updatingSeen: <T>(store: AccountStore, before: () => Promise<readonly number[]>, write: () => Promise<T>): Promise<T> =>
      recorder.withEvents(store, UPDATED, async (tx) => {
        const ids = tx.heard(...UPDATED) ? await before() : [];
        const result = await write();
        await recordUpdates(tx, store, ids);
        return result;
      }),

    /** The delete of contact `id` (`write` answers whether it deleted it): reported as it was. */
    deleting: (store: AccountStore, id: number, write: () => Promise<boolean>): Promise<boolean> =>
      recorder.withEvents(store, DELETED, async (tx) => {
        const before = tx.heard(...DELETED) ? await store.contacts.get(id) : null;
        const views = before ? await viewsOf(store, [before]) : [];
        const deleted = await write();
        if (deleted && before) await tx.record({ object: objectOf(before), action: 'deleted', id, data: views[0] });
        return deleted;
      }),
  };
}

export type ContactEvents = ReturnType<typeof contactEvents>;
