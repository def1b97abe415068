import { HttpError, conflict, validationFailed, type FieldIssue } from '@lib/errors';
import { retryWhileRaced } from '@lib/mongo';
import type { PageReader } from '@lib/paging';
import type { ContactService } from '../contacts/contact.service';
import type { Page, PageParams, Shown, ShownPage, SortedPageParams } from '../paging';
import type { AccountStore } from '../store/crm-store';
import type { TrackDoc } from '../tracks/track.model';
import type { TrackService } from '../tracks/track.service';
import { dealRelations } from './deal-relations';
import type { DealDoc } from './deal.model';
import { dealViews, type DealRelated } from './deal.presenter';
import type { DealInput, DealPatch } from './deal.schemas';
import { MILESTONE_VIEW_MAX_DEALS } from './milestone-view';
import { nowSeconds } from '../input/epoch';
import type { EventRecorder } from '../webhooks/event-recorder';
import { recordEvents } from '../webhooks/record-events';
import { assertCustomValues } from '../custom-fields/custom-values';
import type { CustomDatum } from './deal.model';

export const dealNotFound = (id: number) => new HttpError(404, 'deal_not_found', `No deal with id ${id}`);

/** The writable fields of a deal. */
type DealState = Pick<DealDoc, 'name' | 'description' | 'expected_value' | 'pipeline_id' | 'milestone' | 'probability' | 'close_date' | 'owner_id' | 'contact_ids' | 'custom_data' | 'deal_source_id'>;
type Refs = Partial<Pick<DealDoc, 'pipeline_id' | 'milestone' | 'owner_id' | 'contact_ids' | 'deal_source_id'>>;

const unique = (ids: number[]) => [...new Set(ids)];

/** A whole deal from a D3/D4/D5 body: optional fields not sent take their defaults. */
function stateOf(input: DealInput): DealState {
  return {
    name: input.name,
    description: input.description ?? '',
    expected_value: input.expected_value,
    pipeline_id: input.pipeline_id,
    milestone: input.milestone,
    probability: input.probability ?? 0,
    close_date: input.close_date,
    owner_id: input.owner_id,
    contact_ids: unique(input.contact_ids ?? []),
    custom_data: input.custom_data ?? [],
    deal_source_id: input.deal_source_id ?? 0,
  };
}

/**
 * The spec: "a milestone name typed in the wrong letter case is accepted but the deal does not
 * appear in the milestone view". So a name matching one of the track's milestones but for letter
 * case is stored as typed (the views group by the exact names); any other name is refused.
 */
function isMilestoneOf(milestones: string[], name: string): boolean {
  const lower = name.toLowerCase();
  return milestones.some((milestone) => milestone.toLowerCase() === lower);
}

/** A deal as answered: with its contacts, owners, track name and note ids. */
export type ShownDeal = Shown<DealDoc, DealRelated>;
/** A page of deals, read with what they are shown with. */
export type DealPage = ShownPage<DealDoc, DealRelated>;
/** D8/D9: a track's milestones and its first deals, read as the view fills. */
export interface DealsByMilestone {
  milestones: string[];
  deals: { page: PageReader<DealDoc>; related(records: DealDoc[]): Promise<DealRelated> };
}

/** Use cases on the deals of one account: every call takes the account's store. */
export function dealService(deps: { tracks: TrackService; contacts: ContactService; recorder: EventRecorder }) {
  const shown = async (store: AccountStore, deal: DealDoc): Promise<ShownDeal> => ({ item: deal, related: await dealRelations(store, [deal]) });
  const viewsOf = async (store: AccountStore, deals: DealDoc[]) => dealViews(deals, await dealRelations(store, deals));
  // the write and its settling (which may undo it and answer 400) run in the event's transaction: an undone write sends nothing
  const events = recordEvents<DealDoc>(deps.recorder, { object: 'deal', view: async (store, doc) => (await viewsOf(store, [doc]))[0], read: (store, id) => store.deals.get(id) });
  const related = (store: AccountStore, knownTracks?: TrackDoc[]) => (records: DealDoc[]) => dealRelations(store, records, knownTracks);
  const shownPage = (store: AccountStore, page: Page<DealDoc>): DealPage => ({ page, related: related(store) });

  /** What is wrong with the references of a deal: its track and milestone, its owner, its contacts. */
  async function refIssues(store: AccountStore, refs: Refs): Promise<FieldIssue[]> {
    const issues: FieldIssue[] = [];
    if (refs.pipeline_id !== undefined && refs.milestone !== undefined) {
      const track = await store.tracks.get(refs.pipeline_id);
      if (!track) issues.push({ field: 'pipeline_id', message: `names no track of this account (${refs.pipeline_id})` });
      else if (!isMilestoneOf(track.milestones, refs.milestone)) {
        issues.push({ field: 'milestone', message: `"${refs.milestone}" is not a milestone of the track ${track.name}; use one of: ${track.milestones.join(', ')}` });
      }
    }
    if (refs.owner_id !== undefined && !(await store.users.exists(refs.owner_id))) {
      issues.push({ field: 'owner_id', message: `names no user of this account (${refs.owner_id})` });
    }
    if (refs.deal_source_id && !(await store.categories.isOfType(refs.deal_source_id, 'DEAL_SOURCE'))) {
      issues.push({ field: 'deal_source_id', message: `names no deal source of this account (${refs.deal_source_id}); see GET /dev/api/categories?entity_type=DEAL_SOURCE` });
    }
    if (refs.contact_ids?.length) {
      const found = await store.contacts.existingIds(refs.contact_ids);
      const missing = refs.contact_ids.filter((id) => !found.has(id));
      if (missing.length) issues.push({ field: 'contact_ids', message: `name no contact of this account: ${missing.join(', ')}` });
    }
    return issues;
  }

  async function assertRefs(store: AccountStore, refs: Refs): Promise<void> {
    const issues = await refIssues(store, refs);
    if (issues.length) throw validationFailed(issues);
  }

  /**
   * After a write: the checks ran before it, so a track, milestone, owner or contact removed in
   * between would be left dangling. Contacts deleted meanwhile are pulled (as their delete would
   * have done); a placement or owner that no longer exists undoes the write and answers 400.
   */
  async function settle(store: AccountStore, written: DealDoc, undo: () => Promise<unknown>): Promise<DealDoc> {
    const id = written._id;
    let doc = written;
    const issues = await refIssues(store, { pipeline_id: doc.pipeline_id, milestone: doc.milestone, owner_id: doc.owner_id, contact_ids: doc.contact_ids, deal_source_id: doc.deal_source_id });
    const gone = issues.filter((issue) => issue.field !== 'contact_ids' && issue.field !== 'deal_source_id');
    if (gone.length) {
      await undo();
      throw validationFailed(gone.map((issue) => ({ ...issue, message: `${issue.message} (changed while the deal was being saved)` })));
    }
    if (issues.some((issue) => issue.field === 'contact_ids')) {
      const found = await store.contacts.existingIds(doc.contact_ids);
      const missing = doc.contact_ids.filter((c) => !found.has(c));
      await store.deals.removeContacts(missing, id);
    }
    // the source deleted meanwhile: its delete cleared the deals it found, this one is cleared here
    if (issues.some((issue) => issue.field === 'deal_source_id') && doc.deal_source_id) await store.deals.clearSource(doc.deal_source_id, id);
    if (issues.length) doc = (await store.deals.get(id)) ?? doc;
    return doc;
  }

  /** Puts back the placement and owner a write replaced, unless another write changed them since. */
  const restore = (store: AccountStore, id: number, before: DealDoc, written: Refs) => () =>
    store.deals.restorePlacement(
      id,
      { pipeline_id: written.pipeline_id ?? before.pipeline_id, milestone: written.milestone ?? before.milestone, owner_id: written.owner_id ?? before.owner_id },
      before,
    );

  /** The deal's custom data checked against the account's DEAL custom fields (only entries new or changed since `before`). */
  const assertCustomData = (store: AccountStore, data: CustomDatum[], before?: CustomDatum[]) =>
    assertCustomValues(store, 'DEAL', data.map((datum, index) => ({ ...datum, index })), 'custom_data', before);

  async function requireDeal(store: AccountStore, id: number): Promise<DealDoc> {
    const doc = await store.deals.get(id);
    if (!doc) throw dealNotFound(id);
    return doc;
  }

  /** D3 without id, D5 (with the contact added to `contact_ids`). */
  async function create(store: AccountStore, input: DealInput, extraContacts: number[] = []): Promise<DealDoc> {
    const state = stateOf(input);
    state.contact_ids = unique([...state.contact_ids, ...extraContacts]);
    await assertRefs(store, state);
    await assertCustomData(store, state.custom_data);
    const now = nowSeconds();
    return events.created(store, async () => {
      const created = await store.deals.insert({ ...state, created_time: now, updated_time: now });
      return settle(store, created, () => store.deals.remove(created._id));
    });
  }

  /** D4 and D3 with an id: the body is the whole deal; optional fields not sent take their defaults. */
  async function replace(store: AccountStore, id: number, input: DealInput): Promise<DealDoc> {
    const current = await requireDeal(store, id);
    const state = stateOf(input);
    await assertRefs(store, state);
    await assertCustomData(store, state.custom_data, current.custom_data);
    return events.updated(store, async () => {
      const before = await store.deals.setIf(id, {}, state);
      if (!before) throw dealNotFound(id);
      return settle(store, await requireDeal(store, id), restore(store, id, before, state));
    });
  }

  /**
   * partial-update: only the sent fields change, each with one `$set`, so concurrent updates of
   * different fields lose nothing. A new track or milestone is checked against the other one as
   * stored, and written only if that one is still the same (else re-read and retried).
   */
  async function patch(store: AccountStore, input: DealPatch): Promise<DealDoc> {
    const { id } = input;
    const changes: Partial<DealState> = {};
    for (const key of ['name', 'description', 'expected_value', 'pipeline_id', 'milestone', 'probability', 'close_date', 'owner_id', 'custom_data', 'deal_source_id'] as const) {
      if (input[key] !== undefined) (changes as Record<string, unknown>)[key] = input[key];
    }
    if (input.contact_ids !== undefined) changes.contact_ids = unique(input.contact_ids);
    const moves = changes.pipeline_id !== undefined || changes.milestone !== undefined;
    return retryWhileRaced(
      async () => {
        const current = await requireDeal(store, id);
        const placement = { pipeline_id: changes.pipeline_id ?? current.pipeline_id, milestone: changes.milestone ?? current.milestone };
        await assertRefs(store, { ...(moves && placement), owner_id: changes.owner_id, contact_ids: changes.contact_ids, deal_source_id: changes.deal_source_id });
        if (changes.custom_data) await assertCustomData(store, changes.custom_data, current.custom_data);
        const guard = moves ? { pipeline_id: current.pipeline_id, milestone: current.milestone } : {};
        const written = await events.updated(store, async () => {
          const before = await store.deals.setIf(id, guard, changes);
          return before ? settle(store, await requireDeal(store, id), restore(store, id, before, changes)) : null;
        });
        return written ?? undefined;
      },
      () => conflict(`Deal ${id} was moved by other requests meanwhile; try again`),
    );
  }

  /** D8/D9's read: the track's first MILESTONE_VIEW_MAX_DEALS deals, oldest first, read as the view fills. */
  const byMilestone = (store: AccountStore, track: TrackDoc): DealsByMilestone => ({
    milestones: track.milestones,
    deals: { page: store.deals.inTrack(track._id, MILESTONE_VIEW_MAX_DEALS), related: related(store, [track]) },
  });

  return {
    /** D2; null when the account has no such deal. */
    async get(store: AccountStore, id: number): Promise<ShownDeal | null> {
      const deal = await store.deals.get(id);
      return deal && shown(store, deal);
    },

    /** D1. */
    list: async (store: AccountStore, params: SortedPageParams): Promise<DealPage> => shownPage(store, await store.deals.list(params)),

    /** D10: the deals of a track (`pipeline_id` 0: the Default track; 1: all tracks). */
    async ofTrack(store: AccountStore, pipelineId: number, params: SortedPageParams): Promise<DealPage> {
      const track = pipelineId === 1 ? undefined : await deps.tracks.resolve(store, pipelineId);
      return shownPage(store, await store.deals.list(params, track?._id));
    },

    /** partial-update/delete-contact: the contacts leave the deal (ids it does not relate are skipped); nothing else changes. */
    async removeContacts(store: AccountStore, id: number, contactIds: number[]): Promise<ShownDeal> {
      await requireDeal(store, id);
      const written = await events.updated(store, async () => {
        await store.deals.unrelateContacts(id, unique(contactIds));
        return requireDeal(store, id);
      });
      return shown(store, written);
    },

    /** D8: the Default track's deals by milestone. */
    byDefaultMilestone: async (store: AccountStore) => byMilestone(store, await deps.tracks.defaultTrack(store)),

    /** D9: a track's deals by milestone (`pipeline_id` 0: the Default track). */
    byMilestone: async (store: AccountStore, pipelineId: number) => byMilestone(store, await deps.tracks.resolve(store, pipelineId)),

    /** D11, paged (a contact may be in any number of deals). */
    ofContact: async (store: AccountStore, contactId: number, params: PageParams): Promise<DealPage> => shownPage(store, await store.deals.ofContact(contactId, params)),

    /** D12, paged. */
    ofOwner: async (store: AccountStore, ownerId: number, params: PageParams): Promise<DealPage> => shownPage(store, await store.deals.ofOwner(ownerId, params)),

    /** D3: a new deal, or with the id of a deal of the account that deal replaced (as D4). */
    save: async (store: AccountStore, input: DealInput): Promise<ShownDeal> =>
      shown(store, input.id === undefined ? await create(store, input) : await replace(store, input.id, input)),

    /** D4. */
    replace: async (store: AccountStore, id: number, input: DealInput): Promise<ShownDeal> => shown(store, await replace(store, id, input)),

    /** D5: a new deal related to the contact with this email (400 and nothing created when none has it). */
    async createForEmail(store: AccountStore, email: string, input: DealInput): Promise<ShownDeal> {
      const contact = await deps.contacts.requireByEmail(store, email);
      return shown(store, await create(store, input, [contact._id]));
    },

    /** partial-update. */
    patch: async (store: AccountStore, input: DealPatch): Promise<ShownDeal> => shown(store, await patch(store, input)),

    /** D6. */
    async remove(store: AccountStore, id: number): Promise<number[]> {
      const removed = await events.deleted(store, id, async () => {
        if (!(await store.deals.remove(id))) return false;
        await Promise.all([store.notes.removeDeals([id]), store.documents.removeDeals([id])]);
        return true;
      });
      return removed ? [id] : [];
    },

    /** D7: deletes every listed deal of the account, ignoring other ids; answers the deleted ids. */
    async removeMany(store: AccountStore, ids: number[]): Promise<number[]> {
      // one deal.deleted per deal deleted, each as it was
      return deps.recorder.withEvents(store, ['deal.deleted'], async (tx) => {
        const before = tx.heard('deal.deleted') ? await store.deals.byIds(unique(ids)) : [];
        const views = before.length ? await viewsOf(store, before) : [];
        const found = await store.deals.removeMany(unique(ids));
        if (found.length) await Promise.all([store.notes.removeDeals(found), store.documents.removeDeals(found)]);
        await tx.record(...before.flatMap((doc, i) => (found.includes(doc._id) ? [{ object: 'deal' as const, action: 'deleted' as const, id: doc._id, data: views[i] }] : [])));
        return found;
      });
    },

    /** A dynamic filter's page of deals (filters/filter.service.ts), shown with what deals are shown with. */
    shownPage,
  };
}

export type DealService = ReturnType<typeof dealService>;
