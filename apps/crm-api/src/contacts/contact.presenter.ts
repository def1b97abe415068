import type { DomainUserDoc } from '../accounts/domain-user.model';
import { userView, type UserView } from '../accounts/user.view';
import type { Shown } from '../paging';
import type { ContactsShown } from './contact-links';
import type { ContactDoc } from './contact.model';
import { contactView, type ContactView } from './contact.view';

/**
 * Contact views with their owners (`domainUser`), from what the service read: no database here.
 * One owner view per user, shared by every record it owns: a page's records mostly have one owner,
 * and the view hashes (SHA-256).
 */
export const ownerViewsOf = (users: DomainUserDoc[]): Map<number, UserView> => new Map(users.map((u) => [u._id, userView(u)]));

/** The views of `contacts`, given the views of their owners by user id. */
export const contactViewsWith = (contacts: ContactDoc[], ownerViews: Map<number, UserView>): ContactView[] => contacts.map((doc) => contactView(doc, ownerViews.get(doc.owner)));

/** The views of contacts, each with its owner among `owners`. */
export const contactViews = (contacts: ContactDoc[], owners: DomainUserDoc[]): ContactView[] => contactViewsWith(contacts, ownerViewsOf(owners));

/** The view of one contact the service answered with its owner. */
export const shownContactView = ({ item, related }: Shown<ContactDoc, DomainUserDoc[]>): ContactView => contactViews([item], related)[0];

/** Full views of the contacts records relate, by id (tasks, events and deals show them), given the owner views made for the page. */
export const relatedContactViews = (shown: ContactsShown, ownerViews = ownerViewsOf(shown.owners)): Map<number, ContactView> =>
  new Map(contactViewsWith(shown.contacts, ownerViews).map((view) => [view.id, view]));

/** Contact views of one record, in its order, skipping any contact that no longer exists. */
export const contactsOf = (ids: number[], views: Map<number, ContactView>): ContactView[] => ids.flatMap((id) => views.get(id) ?? []);
