import type { AccountService } from '../accounts/account.service';
import { userView } from '../accounts/user.view';
import type { ContactDoc } from './contact.model';
import { contactView } from './contact.view';

/** Contact views with their owners (`domainUser`), loading the owners of a page in one query. */
export function contactPresenter(accounts: AccountService) {
  async function many(docs: ContactDoc[]) {
    if (docs.length === 0) return [];
    const owners = await accounts.usersById(docs[0].account, [...new Set(docs.map((d) => d.owner))]);
    // one view per owner, shared by its contacts: a page's contacts mostly have one owner, and the view hashes (SHA-256)
    const ownerViews = new Map(owners.map((u) => [u._id, userView(u)]));
    return docs.map((doc) => contactView(doc, ownerViews.get(doc.owner)));
  }
  return {
    many,
    one: async (doc: ContactDoc) => (await many([doc]))[0],
  };
}

export type ContactPresenter = ReturnType<typeof contactPresenter>;
