import { HttpError, conflict, validationFailed } from '@lib/errors';
import { isDuplicateKey } from '@lib/mongo';
import type { AccountStore } from '../store/crm-store';
import { DEFAULT_TRACK_NAME, type TrackDoc } from './track.model';
import { nowSeconds } from '../input/epoch';
import type { EventRecorder } from '../webhooks/event-recorder';
import { recordEvents } from '../webhooks/record-events';
import { trackView } from './track.view';


export const trackNotFound = (id: number) => new HttpError(404, 'track_not_found', `No track with id ${id}`);
const duplicateName = (name: string) =>
  new HttpError(400, 'duplicate_name', `A track named ${name} already exists in this account`, { details: [{ field: 'name', message: 'is already the name of another track' }] });
const defaultTrackFixed = (what: string) =>
  new HttpError(400, 'default_track', `The ${DEFAULT_TRACK_NAME} track cannot be ${what}: every account keeps it as it is (it is also always the last track)`);
const notEmpty = (track: string, where: string, count: number) =>
  new HttpError(400, 'track_not_empty', `${where} of the track ${track} still hold${count === 1 ? 's' : ''} ${count} deal${count === 1 ? '' : 's'}; move or delete ${count === 1 ? 'it' : 'them'} first`);


/** How many deals of the account are in the track, in any of `milestones` (all milestones when omitted): a milestone or track that holds deals cannot be removed. */
const dealsIn = (store: AccountStore, track: number, milestones?: string[]) => store.deals.countInTrack(track, milestones);

export interface TrackServiceOptions {
  /** Milestones of the Default track made for each account (CRM_DEFAULT_MILESTONES). */
  defaultMilestones: string[];
}

/** Use cases on the tracks of one account: every call takes the account's store. */
export function trackService(options: TrackServiceOptions, recorder: EventRecorder) {
  const events = recordEvents<TrackDoc>(recorder, { object: 'track', view: (_store, doc) => trackView(doc), read: (store, id) => store.tracks.get(id) });
  async function insert(store: AccountStore, name: string, milestones: string[]): Promise<TrackDoc> {
    try {
      return await store.tracks.insert(name, milestones, nowSeconds());
    } catch (err) {
      if (isDuplicateKey(err)) throw duplicateName(name);
      throw err;
    }
  }

  /** The account's Default track, made on first use (concurrent first uses make one). */
  async function defaultTrack(store: AccountStore): Promise<TrackDoc> {
    const existing = await store.tracks.byName(DEFAULT_TRACK_NAME);
    if (existing) return existing;
    try {
      return await insert(store, DEFAULT_TRACK_NAME, options.defaultMilestones);
    } catch (err) {
      const made = await store.tracks.byName(DEFAULT_TRACK_NAME);
      if (made) return made;
      throw err;
    }
  }

  async function requireTrack(store: AccountStore, id: number): Promise<TrackDoc> {
    const track = await store.tracks.get(id);
    if (!track) throw trackNotFound(id);
    return track;
  }

  /** K2 (and K3 without id). */
  async function create(store: AccountStore, name: string, milestones: string[]): Promise<TrackDoc> {
    await defaultTrack(store); // so that the Default track keeps the lowest id
    return events.created(store, () => insert(store, name, milestones));
  }

  /**
   * K3 with an id: new name and milestones. A milestone that still holds deals cannot be removed
   * (or renamed); checked before the write and again after it, so a deal placed there meanwhile
   * undoes the change instead of being hidden from the milestone views.
   */
  async function update(store: AccountStore, id: number, name: string, milestones: string[]): Promise<TrackDoc> {
    const current = await requireTrack(store, id);
    if (current.name === DEFAULT_TRACK_NAME) throw defaultTrackFixed('changed');
    const removed = current.milestones.filter((m) => !milestones.includes(m));
    const where = () => `The milestone${removed.length === 1 ? '' : 's'} ${removed.join(', ')}`;
    const before = removed.length ? await dealsIn(store, id, removed) : 0;
    if (before) throw notEmpty(current.name, where(), before);
    // the write and its check after (which may undo it) run in the event's transaction: an undone change sends nothing
    return events.updated(store, async () => {
      let updated: TrackDoc | null;
      try {
        updated = await store.tracks.update(id, current.rev, { name, milestones });
      } catch (err) {
        if (isDuplicateKey(err)) throw duplicateName(name);
        throw err;
      }
      if (!updated) throw conflict(`Track ${id} was changed or deleted by another request meanwhile; try again`);
      const after = removed.length ? await dealsIn(store, id, removed) : 0;
      if (after) {
        await store.tracks.restore(id, updated.rev, current);
        throw notEmpty(current.name, where(), after);
      }
      return updated;
    });
  }

  return {
    defaultTrack,

    /** K1: the Default track first (it has the lowest id of the account), then the others by id. */
    async list(store: AccountStore): Promise<TrackDoc[]> {
      await defaultTrack(store);
      return store.tracks.all();
    },

    /** D9/D10: `pipeline_id` 0 is the Default track; any other value must name a track of the account. */
    async resolve(store: AccountStore, pipelineId: number): Promise<TrackDoc> {
      if (pipelineId === 0) return defaultTrack(store);
      const track = await store.tracks.get(pipelineId);
      if (!track) throw validationFailed([{ field: 'pipeline_id', message: `names no track of this account (${pipelineId}); 0 is the Default track` }]);
      return track;
    },

    /** K2. */
    create,

    /** K3: the track with the id renamed and given the milestones (see update); without an id, a new one (K2). */
    save: (store: AccountStore, id: number | undefined, name: string, milestones: string[]): Promise<TrackDoc> =>
      id === undefined ? create(store, name, milestones) : update(store, id, name, milestones),

    /** K4: 204 also for an unknown id; never the Default track, never a track that holds deals. */
    async remove(store: AccountStore, id: number): Promise<void> {
      const current = await store.tracks.get(id);
      if (!current) return;
      if (current.name === DEFAULT_TRACK_NAME) throw defaultTrackFixed('deleted');
      const before = await dealsIn(store, id);
      if (before) throw notEmpty(current.name, 'The milestones', before);
      await events.deleted(store, id, async () => {
        if (!(await store.tracks.remove(id))) return false;
        // a deal placed in the track while it was being deleted: put the track back
        const after = await dealsIn(store, id);
        if (after) {
          await store.tracks.putBack(current);
          throw notEmpty(current.name, 'The milestones', after);
        }
        return true;
      });
    },
  };
}

export type TrackService = ReturnType<typeof trackService>;
