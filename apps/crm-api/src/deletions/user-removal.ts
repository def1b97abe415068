import { HttpError } from '@lib/errors';
import type { DomainUserDoc } from '../accounts/domain-user.model';
import type { AccountStore } from '../store/crm-store';
import type { CrossTenant } from '../store/cross-tenant';

/** The records a user can own, counted per user in the user's account; a user who owns any cannot be deleted. */
const OWNED_RECORDS: Array<{ what: string; count: (store: AccountStore, owner: number) => Promise<number> }> = [
  { what: 'contacts', count: (store, owner) => store.contacts.countOwnedBy(owner) },
  { what: 'deals', count: (store, owner) => store.deals.countOwnedBy(owner) },
  { what: 'tasks', count: (store, owner) => store.tasks.countOwnedBy(owner) },
  { what: 'notes', count: (store, owner) => store.notes.countOwnedBy(owner) },
  { what: 'documents', count: (store, owner) => store.documents.countOwnedBy(owner) },
];

/**
 * Deleting a user is refused while the user owns records: an owner that no longer exists would be a
 * dangling id. Give the records to another user first (C12 change-owner for contacts, the deal
 * partial-update with `owner_id` for deals, the task partial-update with `owner_id` for tasks, PUT /dev/api/notes with `owner_id`
 * for notes, PUT /dev/api/documents with `owner_id` for documents), then delete. Tickets do not
 * hold a user back: a deleted user is no longer any ticket's assignee (the ticket stays with its group). The user is named by email, across accounts: the cross-tenant module finds
 * it and opens its account's store.
 */
export function userRemoval(directory: CrossTenant) {
  async function owned(user: DomainUserDoc): Promise<string[]> {
    const store = directory.storeOfUser(user);
    const counts = await Promise.all(OWNED_RECORDS.map(async ({ what, count }) => ({ what, n: await count(store, user._id) })));
    return counts.filter(({ n }) => n > 0).map(({ what, n }) => `${n} ${what}`);
  }

  const refused = (user: DomainUserDoc, held: string[]) =>
    new HttpError(409, 'user_owns_records', `${user.email} owns ${held.join(' and ')}: give them to another user first, then delete`);

  /**
   * The workflows the user made go to the account owner (else the first admin, else the first user
   * left): their CREATE_TASK steps need a user to own the tasks they make.
   */
  async function giveWorkflowsAway(user: DomainUserDoc): Promise<void> {
    const store = directory.storeOfUser(user);
    if (!(await store.workflows.countMadeBy(user._id))) return;
    const users = (await store.users.all()).filter((other) => other._id !== user._id);
    const heir = users.find((other) => other.is_account_owner) ?? users.find((other) => other.is_admin) ?? users[0];
    if (heir) await store.workflows.giveTo(user._id, heir._id);
  }

  return {
    async remove(email: string): Promise<DomainUserDoc> {
      const user = await directory.userByEmail(email);
      if (!user) throw new HttpError(404, 'user_not_found', `No user has the email ${email}`);
      if (user.is_account_owner) throw new HttpError(409, 'account_owner', `${email} owns the account and cannot be deleted`);
      const before = await owned(user);
      if (before.length) throw refused(user, before);
      await directory.deleteUser(user);
      await directory.credentials.revoke(user.email);
      await giveWorkflowsAway(user);
      // a record given to the user while it was being deleted: put the user back
      const after = await owned(user);
      if (after.length) {
        await directory.restoreUser(user);
        throw refused(user, after);
      }
      await directory.storeOfUser(user).tickets.unassign(user._id);
      return user;
    },
  };
}

export type UserRemoval = ReturnType<typeof userRemoval>;
