import { driverCollection } from '@lib/mongo';
import type { Connection } from 'mongoose';
import type { AccountService } from '../accounts/account.service';
import { userView } from '../accounts/user.view';
import { contactModel } from '../contacts/contact.model';
import type { ContactPresenter } from '../contacts/contact.presenter';
import { noteModel, type NoteDoc } from '../notes/note.model';
import { trackModel, type TrackDoc } from '../tracks/track.model';
import type { DealDoc } from './deal.model';
import { dealView } from './deal.view';

/** Deal views with their contacts (full contact objects), owners, track names and note ids, loaded once per page. */
export function dealPresenter(connection: Connection, accounts: AccountService, contacts: ContactPresenter) {
  const Contact = contactModel(connection);
  const Track = trackModel(connection);
  const Note = noteModel(connection);

  async function many(docs: DealDoc[]) {
    if (docs.length === 0) return [];
    const account = docs[0].account;
    const contactIds = [...new Set(docs.flatMap((d) => d.contact_ids))];
    const dealIds = docs.map((d) => d._id);
    const [contactDocs, owners, tracks, notes] = await Promise.all([
      // driver reads (the documents lean() gave): a page of deals costs four of them
      contactIds.length ? driverCollection(Contact).find({ account, _id: { $in: contactIds } }).toArray() : Promise.resolve([]),
      accounts.usersById(account, [...new Set(docs.map((d) => d.owner_id))]),
      driverCollection(Track).find<Pick<TrackDoc, '_id' | 'name'>>({ account, _id: { $in: [...new Set(docs.map((d) => d.pipeline_id))] } }, { projection: { name: 1 } }).toArray(),
      driverCollection(Note)
        .find<Pick<NoteDoc, '_id' | 'deals'>>({ account, deals: { $in: dealIds } }, { projection: { deals: 1 }, sort: { created_time: 1, _id: 1 } })
        .toArray(),
    ]);
    const contactViews = new Map((await contacts.many(contactDocs)).map((view) => [view.id, view]));
    const ownerViews = new Map(owners.map((u) => [u._id, userView(u)]));
    const trackName = new Map(tracks.map((t) => [t._id, t.name]));
    const notesByDeal = new Map<number, number[]>();
    for (const note of notes) {
      for (const deal of note.deals) {
        const ids = notesByDeal.get(deal);
        if (ids) ids.push(note._id);
        else notesByDeal.set(deal, [note._id]);
      }
    }
    return docs.map((doc) =>
      dealView(doc, {
        // a contact deleted while this was read is left out: no dangling ids
        contacts: doc.contact_ids.flatMap((id) => contactViews.get(id) ?? []),
        owner: ownerViews.get(doc.owner_id),
        trackName: trackName.get(doc.pipeline_id),
        notes: notesByDeal.get(doc._id) ?? [],
      }),
    );
  }

  return { many, one: async (doc: DealDoc) => (await many([doc]))[0] };
}

export type DealPresenter = ReturnType<typeof dealPresenter>;
