import type { AccountService } from '../accounts/account.service';
import { userView, type UserView } from '../accounts/user.view';
import type { ContactDoc } from './contact.model';
import { contactView } from './contact.view';

/** Contact views with their owners (`domainUser`), loading the owners of a page in one query. */
export function contactPresenter(accounts: AccountService) {
  /** The views, given the views of their owners, by user id (read by the caller together with other users it needs). */
  const withOwners = (docs: ContactDoc[], ownerViews: Map<number, UserView>) => docs.map((doc) => contactView(doc, ownerViews.get(doc.owner)));
  async function many(docs: ContactDoc[]) {
    if (docs.length === 0) return [];
    const owners = await accounts.usersById(docs[0].account, [...new Set(docs.map((d) => d.owner))]);
    // one view per owner, shared by its contacts: a page's contacts mostly have one owner, and the view hashes (SHA-256)
    return withOwners(docs, new Map(owners.map((u) => [u._id, userView(u)])));
  }
  return {
    many,
    withOwners,
    one: async (doc: ContactDoc) => (await many([doc]))[0],
  };
}

export type ContactPresenter = ReturnType<typeof contactPresenter>;
