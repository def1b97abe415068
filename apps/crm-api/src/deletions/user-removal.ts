import { HttpError } from '@lib/errors';
import type { Connection } from 'mongoose';
import { accountRepository } from '../accounts/account.repository';
import { credentialCache } from '../accounts/credential-cache';
import type { DomainUserDoc } from '../accounts/domain-user.model';
import { contactRepository } from '../contacts/contact.repository';
import { dealRepository } from '../deals/deal.repository';
import { noteRepository } from '../notes/note.repository';
import { taskRepository } from '../tasks/task.repository';

/** The records a user can own, counted per user; a user who owns any cannot be deleted. */
function ownedRecords(connection: Connection) {
  return [
    { what: 'contacts', count: (user: DomainUserDoc) => contactRepository(connection, user.account).countOwnedBy(user._id) },
    { what: 'deals', count: (user: DomainUserDoc) => dealRepository(connection, user.account).countOwnedBy(user._id) },
    { what: 'tasks', count: (user: DomainUserDoc) => taskRepository(connection, user.account).countOwnedBy(user._id) },
    { what: 'notes', count: (user: DomainUserDoc) => noteRepository(connection, user.account).countOwnedBy(user._id) },
  ];
}

/**
 * Deleting a user is refused while the user owns records: an owner that no longer exists would be a
 * dangling id. Give the records to another user first (C12 change-owner for contacts, the deal
 * partial-update with `owner_id` for deals, the task partial-update with `owner_id` for tasks, PUT /dev/api/notes with `owner_id`
 * for notes), then delete.
 */
export function userRemoval(connection: Connection) {
  const directory = accountRepository(connection);
  const records = ownedRecords(connection);
  const credentials = credentialCache(connection);

  async function owned(user: DomainUserDoc): Promise<string[]> {
    const counts = await Promise.all(records.map(async ({ what, count }) => ({ what, n: await count(user) })));
    return counts.filter(({ n }) => n > 0).map(({ what, n }) => `${n} ${what}`);
  }

  const refused = (user: DomainUserDoc, held: string[]) =>
    new HttpError(409, 'user_owns_records', `${user.email} owns ${held.join(' and ')}: give them to another user first, then delete`);

  return {
    async remove(email: string): Promise<DomainUserDoc> {
      const user = await directory.userByEmail(email);
      if (!user) throw new HttpError(404, 'user_not_found', `No user has the email ${email}`);
      if (user.is_account_owner) throw new HttpError(409, 'account_owner', `${email} owns the account and cannot be deleted`);
      const before = await owned(user);
      if (before.length) throw refused(user, before);
      await directory.deleteUser(user._id);
      await credentials.revoke(user.email);
      // a record given to the user while it was being deleted: put the user back
      const after = await owned(user);
      if (after.length) {
        await directory.restoreUser(user);
        throw refused(user, after);
      }
      return user;
    },
  };
}

export type UserRemoval = ReturnType<typeof userRemoval>;
