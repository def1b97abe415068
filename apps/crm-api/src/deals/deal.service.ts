import { HttpError, conflict, validationFailed, type FieldIssue } from '@lib/errors';
import { retryWhileRaced } from '@lib/mongo';
import type { UserRepository } from '../accounts/user.repository';
import type { ContactRepository } from '../contacts/contact.repository';
import type { NoteRepository } from '../notes/note.repository';
import type { CrmPager, Page, SortedPageParams } from '../paging';
import type { ForAccount } from '../store/account-scope';
import type { TrackService } from '../tracks/track.service';
import type { DealDoc } from './deal.model';
import type { DealRepository } from './deal.repository';
import type { DealInput, DealPatch } from './deal.schemas';
import { nowSeconds } from '../input/epoch';

/** Partial updates that move a deal are compare-and-set on its placement; retried this often. */

export const dealNotFound = (id: number) => new HttpError(404, 'deal_not_found', `No deal with id ${id}`);

/** The writable fields of a deal. */
type DealState = Pick<DealDoc, 'name' | 'description' | 'expected_value' | 'pipeline_id' | 'milestone' | 'probability' | 'close_date' | 'owner_id' | 'contact_ids' | 'custom_data'>;
type Refs = Partial<Pick<DealDoc, 'pipeline_id' | 'milestone' | 'owner_id' | 'contact_ids'>>;

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

export interface DealServiceDeps {
  deals: ForAccount<DealRepository>;
  /** A deal's contacts and owner must exist; a deleted deal leaves the notes. */
  contacts: ForAccount<ContactRepository>;
  users: ForAccount<UserRepository>;
  notes: ForAccount<NoteRepository>;
  tracks: TrackService;
  pager: CrmPager;
}

export function dealService(deps: DealServiceDeps) {
  const { deals } = deps;

  /** What is wrong with the references of a deal: its track and milestone, its owner, its contacts. */
  async function refIssues(account: number, refs: Refs): Promise<FieldIssue[]> {
    const issues: FieldIssue[] = [];
    if (refs.pipeline_id !== undefined && refs.milestone !== undefined) {
      const track = await deps.tracks.find(account, refs.pipeline_id);
      if (!track) issues.push({ field: 'pipeline_id', message: `names no track of this account (${refs.pipeline_id})` });
      else if (!isMilestoneOf(track.milestones, refs.milestone)) {
        issues.push({ field: 'milestone', message: `"${refs.milestone}" is not a milestone of the track ${track.name}; use one of: ${track.milestones.join(', ')}` });
      }
    }
    if (refs.owner_id !== undefined && !(await deps.users(account).exists(refs.owner_id))) {
      issues.push({ field: 'owner_id', message: `names no user of this account (${refs.owner_id})` });
    }
    if (refs.contact_ids?.length) {
      const found = await deps.contacts(account).existingIds(refs.contact_ids);
      const missing = refs.contact_ids.filter((id) => !found.has(id));
      if (missing.length) issues.push({ field: 'contact_ids', message: `name no contact of this account: ${missing.join(', ')}` });
    }
    return issues;
  }

  async function assertRefs(account: number, refs: Refs): Promise<void> {
    const issues = await refIssues(account, refs);
    if (issues.length) throw validationFailed(issues);
  }

  /**
   * After a write: the checks ran before it, so a track, milestone, owner or contact removed in
   * between would be left dangling. Contacts deleted meanwhile are pulled (as their delete would
   * have done); a placement or owner that no longer exists undoes the write and answers 400.
   */
  async function settle(account: number, written: DealDoc, undo: () => Promise<unknown>): Promise<DealDoc> {
    const id = written._id;
    let doc = written;
    const issues = await refIssues(account, { pipeline_id: doc.pipeline_id, milestone: doc.milestone, owner_id: doc.owner_id, contact_ids: doc.contact_ids });
    const gone = issues.filter((issue) => issue.field !== 'contact_ids');
    if (gone.length) {
      await undo();
      throw validationFailed(gone.map((issue) => ({ ...issue, message: `${issue.message} (changed while the deal was being saved)` })));
    }
    if (issues.length) {
      const found = await deps.contacts(account).existingIds(doc.contact_ids);
      const missing = doc.contact_ids.filter((c) => !found.has(c));
      await deals(account).removeContacts(missing, id);
      doc = (await deals(account).get(id)) ?? doc;
    }
    return doc;
  }

  /** Puts back the placement and owner a write replaced, unless another write changed them since. */
  const restore = (account: number, id: number, before: DealDoc, written: Refs) => () =>
    deals(account).restorePlacement(
      id,
      { pipeline_id: written.pipeline_id ?? before.pipeline_id, milestone: written.milestone ?? before.milestone, owner_id: written.owner_id ?? before.owner_id },
      before,
    );

  async function requireDeal(account: number, id: number): Promise<DealDoc> {
    const doc = await deals(account).get(id);
    if (!doc) throw dealNotFound(id);
    return doc;
  }

  return {
    get: (account: number, id: number) => deals(account).get(id),

    /** D1, and D10 with a track filter. */
    list: (account: number, params: SortedPageParams, pipelineId?: number): Promise<Page<DealDoc>> =>
      deals(account).list(deps.pager, params, pipelineId),

    /** D8/D9's read: a track's first `size` deals, oldest first, read as the view fills. */
    inTrack: (account: number, pipelineId: number, size: number) => deals(account).inTrack(deps.pager, pipelineId, size),

    /** D11, paged (a contact may be in any number of deals). */
    ofContact: (account: number, contactId: number, params: { page_size: number; cursor?: string }): Promise<Page<DealDoc>> =>
      deals(account).ofContact(deps.pager, contactId, params),

    /** D12, paged. */
    ofOwner: (account: number, ownerId: number, params: { page_size: number; cursor?: string }): Promise<Page<DealDoc>> =>
      deals(account).ofOwner(deps.pager, ownerId, params),

    /** D3 without id, D5 (with the contact added to `contact_ids`). */
    async create(account: number, input: DealInput, extraContacts: number[] = []): Promise<DealDoc> {
      const state = stateOf(input);
      state.contact_ids = unique([...state.contact_ids, ...extraContacts]);
      await assertRefs(account, state);
      const now = nowSeconds();
      const created = await deals(account).insert({ ...state, created_time: now, updated_time: now });
      return settle(account, created, () => deals(account).remove(created._id));
    },

    /** D4 and D3 with an id: the body is the whole deal; optional fields not sent take their defaults. */
    async replace(account: number, id: number, input: DealInput): Promise<DealDoc> {
      await requireDeal(account, id);
      const state = stateOf(input);
      await assertRefs(account, state);
      const before = await deals(account).setIf(id, {}, state);
      if (!before) throw dealNotFound(id);
      return settle(account, await requireDeal(account, id), restore(account, id, before, state));
    },

    /**
     * partial-update: only the sent fields change, each with one `$set`, so concurrent updates of
     * different fields lose nothing. A new track or milestone is checked against the other one as
     * stored, and written only if that one is still the same (else re-read and retried).
     */
    async patch(account: number, input: DealPatch): Promise<DealDoc> {
      const { id } = input;
      const changes: Partial<DealState> = {};
      for (const key of ['name', 'description', 'expected_value', 'pipeline_id', 'milestone', 'probability', 'close_date', 'owner_id', 'custom_data'] as const) {
        if (input[key] !== undefined) (changes as Record<string, unknown>)[key] = input[key];
      }
      if (input.contact_ids !== undefined) changes.contact_ids = unique(input.contact_ids);
      const moves = changes.pipeline_id !== undefined || changes.milestone !== undefined;
      return retryWhileRaced(
        async () => {
          const current = await requireDeal(account, id);
          const placement = { pipeline_id: changes.pipeline_id ?? current.pipeline_id, milestone: changes.milestone ?? current.milestone };
          await assertRefs(account, { ...(moves && placement), owner_id: changes.owner_id, contact_ids: changes.contact_ids });
          const guard = moves ? { pipeline_id: current.pipeline_id, milestone: current.milestone } : {};
          const before = await deals(account).setIf(id, guard, changes);
          return before ? settle(account, await requireDeal(account, id), restore(account, id, before, changes)) : undefined;
        },
        () => conflict(`Deal ${id} was moved by other requests meanwhile; try again`),
      );
    },

    /** D6. */
    async remove(account: number, id: number): Promise<number[]> {
      if (!(await deals(account).remove(id))) return [];
      await deps.notes(account).removeDeals([id]);
      return [id];
    },

    /** D7: deletes every listed deal of the account, ignoring other ids; answers the deleted ids. */
    async removeMany(account: number, ids: number[]): Promise<number[]> {
      const found = await deals(account).removeMany(unique(ids));
      if (found.length) await deps.notes(account).removeDeals(found);
      return found;
    },
  };
}

export type DealService = ReturnType<typeof dealService>;
