import { contactsShown } from '../contacts/contact-links';
import type { AccountStore } from '../store/crm-store';
import type { TrackDoc } from '../tracks/track.model';
import type { DealDoc } from './deal.model';
import { DEAL_NOTES_SHOWN, type DealRelated } from './deal.presenter';

/**
 * The ids of each deal's oldest DEAL_NOTES_SHOWN notes. One read of all their notes, unless that
 * read fills its limit (some deal has more): then each deal's own, bounded.
 */
async function noteIdsByDeal(store: AccountStore, dealIds: number[]): Promise<Map<number, number[]>> {
  const limit = DEAL_NOTES_SHOWN * dealIds.length;
  const notes = await store.notes.ofDeals(dealIds, limit);
  if (notes.length === limit) {
    const perDeal = await Promise.all(dealIds.map((id) => store.notes.ofDeals([id], DEAL_NOTES_SHOWN)));
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

/** The names of the tracks `ids`: those of `known` as given, the others read (one read, none when all are known). */
async function trackNames(store: AccountStore, ids: number[], known: ReadonlyArray<Pick<TrackDoc, '_id' | 'name'>>): Promise<Map<number, string>> {
  const names = new Map(known.map((t) => [t._id, t.name]));
  const missing = ids.filter((id) => !names.has(id));
  if (missing.length) for (const t of await store.tracks.namesOf(missing)) names.set(t._id, t.name);
  return names;
}

/**
 * What deals are shown with, read once for a page of them: their contacts, then the owners of the
 * deals and of those contacts together, alongside their track names and note ids. Driver reads (the
 * documents lean() gave): a page of deals costs four of them, three when every deal is in a track
 * of `knownTracks` (D8/D9 show one track, read before its deals).
 */
export async function dealRelations(store: AccountStore, deals: DealDoc[], knownTracks: ReadonlyArray<Pick<TrackDoc, '_id' | 'name'>> = []): Promise<DealRelated> {
  const [people, trackNamesOf, noteIds] = await Promise.all([
    contactsShown(
      store,
      deals.flatMap((d) => d.contact_ids),
      deals.map((d) => d.owner_id),
    ),
    trackNames(store, [...new Set(deals.map((d) => d.pipeline_id))], knownTracks),
    noteIdsByDeal(
      store,
      deals.map((d) => d._id),
    ),
  ]);
  return { ...people, trackNames: trackNamesOf, noteIds };
}
