import { HttpError } from '@lib/errors';
import type { Connection } from 'mongoose';
import { contactModel } from '../contacts/contact.model';
import { credentialCache } from '../auth/credential-cache';
import { dealModel } from '../deals/deal.model';
import { noteModel } from '../notes/note.model';
import { taskModel } from '../tasks/task.model';
import { domainUserModel, type DomainUserDoc } from './domain-user.model';

/** The records a user can own, counted per user; a user who owns any cannot be deleted. */
function ownedRecords(connection: Connection) {
  return [
    { what: 'contacts', count: (user: DomainUserDoc) => contactModel(connection).countDocuments({ account: user.account, owner: user._id }) },
    { what: 'deals', count: (user: DomainUserDoc) => dealModel(connection).countDocuments({ account: user.account, owner_id: user._id }) },
    { what: 'tasks', count: (user: DomainUserDoc) => taskModel(connection).countDocuments({ account: user.account, owner: user._id }) },
    { what: 'notes', count: (user: DomainUserDoc) => noteModel(connection).countDocuments({ account: user.account, owner: user._id }) },
  ];
}

/**
 * Deleting a user is refused while the user owns records: an owner that no longer exists would be a
 * dangling id. Give the records to another user first (C12 change-owner for contacts, the deal
 * partial-update with `owner_id` for deals, the task partial-update with `owner_id` for tasks, PUT /dev/api/notes with `owner_id`
 * for notes), then delete.
 */
export function userRemoval(connection: Connection) {
  const DomainUser = domainUserModel(connection);
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
      const user = await DomainUser.findOne({ email }).lean<DomainUserDoc>();
      if (!user) throw new HttpError(404, 'user_not_found', `No user has the email ${email}`);
      if (user.is_account_owner) throw new HttpError(409, 'account_owner', `${email} owns the account and cannot be deleted`);
      const before = await owned(user);
      if (before.length) throw refused(user, before);
      await DomainUser.deleteOne({ _id: user._id });
      await credentials.revoke(user.email);
      // a record given to the user while it was being deleted: put the user back
      const after = await owned(user);
      if (after.length) {
        await DomainUser.create(user);
        throw refused(user, after);
      }
      return user;
    },
  };
}

export type UserRemoval = ReturnType<typeof userRemoval>;
