import type { AccountService } from '../accounts/account.service';
import { contactsOf, type ContactLinks } from '../contacts/contact-links';
import type { TaskDoc } from './task.model';
import { taskView } from './task.view';

/** Task views with their contacts and owners, loading those of a whole page at once. */
export function taskPresenter(accounts: AccountService, links: ContactLinks) {
  async function many(docs: TaskDoc[]) {
    if (docs.length === 0) return [];
    const account = docs[0].account;
    const [contacts, owners] = await Promise.all([links.views(account, docs), accounts.usersById(account, [...new Set(docs.map((d) => d.owner))])]);
    const ownerById = new Map(owners.map((u) => [u._id, u]));
    return docs.map((doc) => taskView(doc, contactsOf(doc, contacts), ownerById.get(doc.owner)));
  }
  return { many, one: async (doc: TaskDoc) => (await many([doc]))[0] };
}

export type TaskPresenter = ReturnType<typeof taskPresenter>;
