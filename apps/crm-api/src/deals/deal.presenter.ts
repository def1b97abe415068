import type { AccountService } from '../accounts/account.service';
import { userView } from '../accounts/user.view';
import type { ContactPresenter } from '../contacts/contact.presenter';
import type { ContactRepository } from '../contacts/contact.repository';
import type { NoteRepository } from '../notes/note.repository';
import type { ForAccount } from '../store/account-scope';
import type { TrackRepository } from '../tracks/track.repository';
import type { DealDoc } from './deal.model';
import { dealView } from './deal.view';

/** A deal shows the ids of at most this many of its notes, the oldest; the deal's note list (paged) has them all. */
export const DEAL_NOTES_SHOWN = 100;

export interface DealRelationReads {
  contacts: ForAccount<ContactRepository>;
  tracks: ForAccount<TrackRepository>;
  notes: ForAccount<NoteRepository>;
}

/** Deal views with their contacts (full contact objects), owners, track names and note ids, loaded once per page. */
export function dealPresenter(reads: DealRelationReads, accounts: AccountService, contacts: ContactPresenter) {
  const readNotes = (account: number, deals: number[], limit: number) => reads.notes(account).ofDeals(deals, limit);

  /**
   * The ids of each deal's oldest DEAL_NOTES_SHOWN notes. One read of all their notes, unless
   * that read fills its limit (some deal has more): then each deal's own, bounded.
   */
  async function noteIdsByDeal(account: number, dealIds: number[]): Promise<Map<number, number[]>> {
    const limit = DEAL_NOTES_SHOWN * dealIds.length;
    const notes = await readNotes(account, dealIds, limit);
    if (notes.length === limit) {
      const perDeal = await Promise.all(dealIds.map((id) => readNotes(account, [id], DEAL_NOTES_SHOWN)));
      return new Map(dealIds.map((id, i) => [id, perDeal[i].map((note) => note._id)]));
    }
    const byDeal = new Map<number, number[]>();
    for (const note of notes) {
      for (const deal of note.deals) {
        const ids = byDeal.get(deal);
        if (!ids) byDeal.set(deal, [note._id]);
        else if (ids.length < DEAL_NOTES_SHOWN) ids.push(note._id);
      }
    }
    return byDeal;
  }

  async function many(docs: DealDoc[]) {
    if (docs.length === 0) return [];
    const account = docs[0].account;
    const contactIds = [...new Set(docs.flatMap((d) => d.contact_ids))];
    const dealIds = docs.map((d) => d._id);
    // driver reads (the documents lean() gave): a page of deals costs four of them, the owners of
    // the deals and of their contacts read together once the contacts are in
    const [contactDocs, tracks, notes] = await Promise.all([
      contactIds.length ? reads.contacts(account).byIdsFast(contactIds) : Promise.resolve([]),
      reads.tracks(account).namesOf([...new Set(docs.map((d) => d.pipeline_id))]),
      noteIdsByDeal(account, dealIds),
    ]);
    const owners = await accounts.usersById(account, [...new Set([...docs.map((d) => d.owner_id), ...contactDocs.map((c) => c.owner)])]);
    // one view per user, shared by every deal and contact it owns (the view hashes, SHA-256)
    const ownerViews = new Map(owners.map((u) => [u._id, userView(u)]));
    const contactViews = new Map(contacts.withOwners(contactDocs, ownerViews).map((view) => [view.id, view]));
    const trackName = new Map(tracks.map((t) => [t._id, t.name]));
    return docs.map((doc) =>
      dealView(doc, {
        // a contact deleted while this was read is left out: no dangling ids
        contacts: doc.contact_ids.flatMap((id) => contactViews.get(id) ?? []),
        owner: ownerViews.get(doc.owner_id),
        trackName: trackName.get(doc.pipeline_id),
        notes: notes.get(doc._id) ?? [],
      }),
    );
  }

  return { many, one: async (doc: DealDoc) => (await many([doc]))[0] };
}

export type DealPresenter = ReturnType<typeof dealPresenter>;
