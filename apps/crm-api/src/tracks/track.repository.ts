import type { AccountScope } from '../store/account-scope';
import type { TrackDoc } from './track.model';

/** The tracks of one account. */
export function trackRepository(scope: AccountScope<TrackDoc>) {
  return {
    // driver reads (no mongoose Query to build and cast): D8/D9 read their track on every request
    get: (id: number) => scope.driverFindOne({ _id: id }),
    byName: (name: string) => scope.driverFindOne({ name }),
    /** K1 order: by id. */
    all: () => scope.find().sort({ _id: 1 }),
    /** Names of the tracks among `ids` (a driver read: a page of deals shows them). */
    namesOf: (ids: number[]) => scope.driverFind<Pick<TrackDoc, '_id' | 'name'>>({ _id: { $in: ids } }, { projection: { name: 1 } }),

    // never 0 or 1 (D9 and D10 read pipeline_id 0 as "the Default track" and 1 as "all tracks"):
    // time-ordered ids are above 2^48, and the tracks stored before started at 2
    insert: (name: string, milestones: string[], created_time: number) =>
      scope.insert((id) => ({ _id: id, name, milestones, created_time, rev: 0 })),
    /** Renames and sets the milestones unless the track changed since `rev`; null then. */
    update: (id: number, rev: number, changes: Pick<TrackDoc, 'name' | 'milestones'>) =>
      scope.findOneAndUpdate({ _id: id, rev }, { $set: changes, $inc: { rev: 1 } }, 'after'),
    /** Puts back name and milestones unless the track changed since `rev`. */
    restore: (id: number, rev: number, before: Pick<TrackDoc, 'name' | 'milestones'>) =>
      scope.updateOne({ _id: id, rev }, { $set: { name: before.name, milestones: before.milestones }, $inc: { rev: 1 } }),
    async remove(id: number): Promise<boolean> {
      return (await scope.deleteOne({ _id: id })).deletedCount > 0;
    },
    /** Stores a deleted track again, as it was (a no-op if it is back already). */
    putBack: (track: TrackDoc) => scope.putBack(track),
  };
}

export type TrackRepository = ReturnType<typeof trackRepository>;
