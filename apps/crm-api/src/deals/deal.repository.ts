import type { PageReader } from '@lib/paging';
import type { Page, PageParams, SortedPageParams } from '../paging';
import type { AccountScope, Changes, ScopedFilter } from '../store/account-scope';
import type { DealDoc } from './deal.model';
import { nowSeconds } from '../input/epoch';

type Placement = Pick<DealDoc, 'pipeline_id' | 'milestone' | 'owner_id'>;


/** The deals of one account. */
export function dealRepository(scope: AccountScope<DealDoc>) {
  return {
    get: scope.get,
    insert: (fields: Omit<DealDoc, '_id' | 'account'>) => scope.insert((id) => ({ _id: id, ...fields })),
    /** Sets the fields (and updated_time) when the deal matches `guard`; the deal as it was before, or null. */
    setIf: (id: number, guard: Partial<Placement>, changes: Changes<DealDoc>) =>
      scope.findOneAndUpdate({ _id: id, ...guard }, { $set: { ...changes, updated_time: nowSeconds() } }, 'before'),
    /** Puts back track, milestone and owner, unless they changed since they became `written`. */
    restorePlacement: (id: number, written: Placement, before: Placement) =>
      scope.updateOne(
        { _id: id, pipeline_id: written.pipeline_id, milestone: written.milestone, owner_id: written.owner_id },
        { $set: { pipeline_id: before.pipeline_id, milestone: before.milestone, owner_id: before.owner_id } },
      ),
    remove: async (id: number) => (await scope.deleteOne({ _id: id })).deletedCount > 0,
    byIds: (ids: number[]) => scope.find({ _id: { $in: ids } }),
    /** Deletes the deals among `ids`; answers the ids deleted (those of the account, by id). */
    async removeMany(ids: number[]): Promise<number[]> {
      const found = (await scope.find<{ _id: number }>({ _id: { $in: ids } }, { _id: 1 }).sort({ _id: 1 })).map((d) => d._id);
      if (found.length) await scope.deleteMany({ _id: { $in: found } });
      return found;
    },

    /** D1 and D10 (one track), in the order of `global_sort_key` (on the driver: the filter is a number or nothing). */
    list: (params: SortedPageParams, pipelineId?: number): Promise<Page<DealDoc>> =>
      scope.driverSorted(`${pipelineId ?? 'all'}`, pipelineId === undefined ? {} : { pipeline_id: pipelineId }, params),
    /** D8/D9's read: the first `size` deals of a track by creation, straight to the driver (the documents lean() gave), read as the view fills. */
    inTrack: (pipelineId: number, size: number): PageReader<DealDoc> => scope.driverFirst({ pipeline_id: pipelineId }, size),
    ofContact: (contactId: number, params: PageParams): Promise<Page<DealDoc>> => scope.page(`contact:${contactId}`, { contact_ids: contactId }, params),
    ofOwner: (ownerId: number, params: PageParams): Promise<Page<DealDoc>> => scope.page(`owner:${ownerId}`, { owner_id: ownerId }, params),
    /** A dynamic filter's page; its cursor is bound to `key`, the filter as sent. */
    filtered: (filter: ScopedFilter, params: SortedPageParams, key: string): Promise<Page<DealDoc>> => scope.sorted(`filter:${key}`, filter, params),

    /** Whether every id names a deal. */
    allExist: async (ids: number[]) => (await scope.count({ _id: { $in: ids } })) === ids.length,
    /** Deals in the track, in any of `milestones` (all when omitted). */
    countInTrack: (track: number, milestones?: string[]) => scope.count({ pipeline_id: track, ...(milestones && { milestone: { $in: milestones } }) }),
    countOwnedBy: (owner: number) => scope.count({ owner_id: owner }),

    /** Deals whose source was `sourceId` (the deal `recordId`, or every deal) get none (0), each atomically. */
    clearSource: (sourceId: number, recordId?: number) =>
      scope.updateMany({ deal_source_id: sourceId, ...(recordId !== undefined && { _id: recordId }) }, { $set: { deal_source_id: 0 } }),
    /** delete-contact: the contacts leave the deal, which records the change (atomically). */
    unrelateContacts: (dealId: number, contactIds: number[]) => scope.removeFromLists({ _id: dealId }, 'contact_ids', contactIds, { updated_time: nowSeconds() }),
    /** Takes the contacts out of the deal `recordId`, or of every deal; each deal changed atomically. */
    removeContacts: (contactIds: number[], recordId?: number) =>
      scope.removeFromLists(recordId === undefined ? {} : { _id: recordId }, 'contact_ids', contactIds),
  };
}

export type DealRepository = ReturnType<typeof dealRepository>;
