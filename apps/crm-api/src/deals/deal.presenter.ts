import type { DomainUserDoc } from '../accounts/domain-user.model';
import type { ContactsShown } from '../contacts/contact-links';
import { contactsOf, ownerViewsOf, relatedContactViews } from '../contacts/contact.presenter';
import type { Shown } from '../paging';
import type { DealDoc } from './deal.model';
import { dealView, type DealView } from './deal.view';

/** A deal shows the ids of at most this many of its notes, the oldest; the deal's note list (paged) has them all. */
export const DEAL_NOTES_SHOWN = 100;

/** What deals are shown with, read for a page of them at once (deal.service.ts). */
export interface DealRelated extends ContactsShown {
  /** The owners of the deals and of their contacts. */
  owners: DomainUserDoc[];
  trackNames: Map<number, string>;
  /** The ids of each deal's oldest DEAL_NOTES_SHOWN notes. */
  noteIds: Map<number, number[]>;
}

/** Deal views with their contacts (full contact objects), owners, track names and note ids: no database here. */
export function dealViews(deals: DealDoc[], related: DealRelated): DealView[] {
  // one view per user, shared by every deal and contact it owns (the view hashes, SHA-256)
  const ownerViews = ownerViewsOf(related.owners);
  const contactViews = relatedContactViews(related, ownerViews);
  return deals.map((doc) =>
    dealView(doc, {
      // a contact deleted while this was read is left out: no dangling ids
      contacts: contactsOf(doc.contact_ids, contactViews),
      owner: ownerViews.get(doc.owner_id),
      trackName: related.trackNames.get(doc.pipeline_id),
      notes: related.noteIds.get(doc._id) ?? [],
    }),
  );
}

/** The view of one deal the service answered with its relations. */
export const shownDealView = ({ item, related }: Shown<DealDoc, DealRelated>): DealView => dealViews([item], related)[0];
