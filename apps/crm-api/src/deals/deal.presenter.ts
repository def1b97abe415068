import type { Connection } from 'mongoose';
import type { AccountService } from '../accounts/account.service';
import { contactModel, type ContactDoc } from '../contacts/contact.model';
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
      contactIds.length ? Contact.find({ account, _id: { $in: contactIds } }).lean<ContactDoc[]>() : Promise.resolve([]),
      accounts.usersById(account, [...new Set(docs.map((d) => d.owner_id))]),
      Track.find({ account, _id: { $in: [...new Set(docs.map((d) => d.pipeline_id))] } }, { name: 1 }).lean<Pick<TrackDoc, '_id' | 'name'>[]>(),
      Note.find({ account, deals: { $in: dealIds } }, { deals: 1 }).sort({ created_time: 1, _id: 1 }).lean<Pick<NoteDoc, '_id' | 'deals'>[]>(),
    ]);
    const contactViews = new Map((await contacts.many(contactDocs)).map((view) => [view.id, view]));
    const ownerById = new Map(owners.map((u) => [u._id, u]));
    const trackName = new Map(tracks.map((t) => [t._id, t.name]));
    const notesOf = (deal: number) => notes.filter((note) => note.deals.includes(deal)).map((note) => note._id);
    return docs.map((doc) =>
      dealView(doc, {
        // a contact deleted while this was read is left out: no dangling ids
        contacts: doc.contact_ids.flatMap((id) => contactViews.get(id) ?? []),
        owner: ownerById.get(doc.owner_id),
        trackName: trackName.get(doc.pipeline_id),
        notes: notesOf(doc._id),
      }),
    );
  }

  return { many, one: async (doc: DealDoc) => (await many([doc]))[0] };
}

export type DealPresenter = ReturnType<typeof dealPresenter>;
