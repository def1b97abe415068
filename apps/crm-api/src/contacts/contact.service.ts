import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { HttpError, badRequest, conflict, toHttpError, validationFailed } from '@lib/errors';
import { escapeRegex, retryWhileRaced } from '@lib/mongo';
import type { DomainUserDoc } from '../accounts/domain-user.model';
import type { CrmPager, Page, SortedPageParams } from '../paging';
import type { ForAccount } from '../store/account-scope';
import { assertContactRules, emailsOf, TAG_MAX, type ContactState } from './contact-rules';
import type { ContactDoc, Property } from './contact.model';
import type { ContactRepository } from './contact.repository';
import type { ContactInput } from './contact.schemas';
import type { ContactSlots, SlotReservation } from './contact-slots';
import type { EmailClaimRepository } from './email-claim.repository';
import { emailClaims } from './email-claims';
import { nowSeconds } from '../input/epoch';

const CAMPAIGN_LISTS = ['campaignStatus', 'unsubscribeStatus', 'emailBounceStatus'] as const;
/** How long an edit may hold a contact, and how long another edit waits for it. */
const LEASE_MS = 10_000;
const LEASE_WAIT_MS = 15_000;

const tagsOf = (doc: Pick<ContactDoc, 'tag_times'>) => Object.keys(doc.tag_times ?? {});
/** A property as the model stores it: its fields in schema order, absent ones left out. */
const storedProperty = ({ name, type, subtype, value }: Property): Property => ({
  name,
  type,
  ...(subtype !== undefined && { subtype }),
  ...(value !== undefined && { value }),
});

export const contactNotFound = (what: string) => new HttpError(404, 'contact_not_found', `No contact ${what}`);
const noContactWithEmail = (email: string) => badRequest(`No contact has the email ${email}`, [{ field: 'email', message: 'matches no contact' }]);
const companyRefused = (what: string) => badRequest(`Companies take no ${what}`);
const tooManyTags = (stored: number, added: number) =>
  validationFailed([{ field: 'tags', message: `a contact holds at most ${TAG_MAX} tags (it holds ${stored}${added ? `; ${added} of these were added before it was full` : ''})` }]);

export interface ContactServiceDeps {
  contacts: ForAccount<ContactRepository>;
  claims: ForAccount<EmailClaimRepository>;
  /** The contact limit of each account. */
  slots: ContactSlots;
  pager: CrmPager;
  /** What deleting a contact does to the records that relate it (notes, tasks, events, deals). */
  contactDeleted: (account: number, id: number) => Promise<void>;
}

export function contactService(deps: ContactServiceDeps) {
  const { contacts, slots } = deps;
  const claims = emailClaims(deps);

  async function assertCompany(account: number, id: number | null): Promise<void> {
    if (id === null) return;
    if (!(await contacts(account).companyExists(id))) {
      throw validationFailed([{ field: 'contact_company_id', message: `names no company of this account (${id})` }]);
    }
  }

  /**
   * After a person is written with a company: when the company was deleted meanwhile (after the
   * check, before the write, so its delete missed this person), unlink, as that delete would have.
   */
  async function dropDeletedCompany(doc: ContactDoc): Promise<ContactDoc> {
    const company = doc.contact_company_id;
    const repository = contacts(doc.account);
    if (company === null || (await repository.companyExists(company))) return doc;
    await repository.unlinkCompany(doc._id, company);
    return (await repository.get(doc._id)) ?? { ...doc, contact_company_id: null };
  }

  function assertCampaignLists(input: ContactInput, current?: ContactDoc): void {
    const hasCampaigns = current && CAMPAIGN_LISTS.some((list) => current[list].length > 0);
    const issues = CAMPAIGN_LISTS.flatMap((list) => {
      if (hasCampaigns && !isDeepStrictEqual(input[list], current[list])) {
        return [{ field: list, message: 'must be sent unchanged from the retrieved contact (the contact has campaigns)' }];
      }
      if (!hasCampaigns && input[list]?.length) return [{ field: list, message: 'is read-only' }];
      return [];
    });
    if (issues.length) throw validationFailed(issues);
  }

  /** The tag map for a new tag list: kept tags keep their time, new ones get now (own keys only: a tag may be named `constructor`). */
  function tagTimes(tags: string[], previous: Record<string, number> = {}): Record<string, number> {
    const now = Date.now();
    return Object.fromEntries([...new Set(tags)].map((tag) => [tag, Object.hasOwn(previous, tag) ? previous[tag] : now]));
  }

  async function findByEmail(account: number, email: string): Promise<ContactDoc | null> {
    // a person first when a company shares the email
    return contacts(account).byEmailFast(email);
  }

  async function requireByEmail(account: number, email: string): Promise<ContactDoc> {
    const contact = await findByEmail(account, email);
    if (!contact) throw noContactWithEmail(email);
    return contact;
  }

  async function reload(account: number, id: number): Promise<ContactDoc> {
    const doc = await contacts(account).get(id);
    if (!doc) throw contactNotFound(`with id ${id}`);
    return doc;
  }

  /**
   * Runs `work` holding a short lease on the contact: edits of one contact run one at a time, so
   * the emails an edit claims, its write and the emails it releases never interleave with another
   * edit of the same contact. Atomic calls (tags, score) need no lease. An edit that cannot get the
   * lease within LEASE_WAIT_MS is a 409; a lease left by a crashed process expires after LEASE_MS.
   */
  async function withLease<T>(account: number, id: number, work: (token: string) => Promise<T>): Promise<T> {
    const token = randomUUID();
    const repository = contacts(account);
    await retryWhileRaced(
      async () => {
        if (await repository.takeLease(id, token, LEASE_MS)) return true;
        if (!(await repository.exists(id))) throw contactNotFound(`with id ${id}`);
        return undefined;
      },
      () => conflict(`Contact ${id} is being changed by other requests; try again`),
      { attempts: Infinity, withinMs: LEASE_WAIT_MS },
    );
    try {
      return await work(token);
    } finally {
      await repository.releaseLease(id, token);
    }
  }

  /** Whole-contact edits: compute the next state from the current one and write it under the lease. */
  function edit(account: number, id: number, next: (current: ContactDoc) => Promise<Partial<ContactDoc>> | Partial<ContactDoc>): Promise<ContactDoc> {
    return withLease(account, id, async (token) => {
      const current = await reload(account, id);
      const changes = await next(current);
      const merged = { ...current, ...changes };
      assertContactRules({ ...merged, tags: tagsOf(merged) });
      const emails = emailsOf(merged.properties);
      const added = merged.type === 'PERSON' ? emails.filter((e) => !current.emails.includes(e)) : [];
      await claims.claim(account, id, added);
      const written = await contacts(account)
        .writeLeased(id, token, { ...changes, emails })
        .catch(async (err) => {
          await claims.release(account, id, added);
          throw err;
        });
      if (!written) {
        await claims.release(account, id, added); // deleted meanwhile, or the lease ran out
        throw conflict(`Contact ${id} changed while it was being edited; try again`);
      }
      await claims.release(account, id, current.emails.filter((e) => !emails.includes(e)));
      return reload(account, id);
    });
  }

  /**
   * The contact with its `tag_count`; a contact stored before the count existed gets it first
   * (compare-and-set on `rev`, which every write bumps, so no concurrent tag write is miscounted).
   */
  async function withTagCount(contact: ContactDoc): Promise<ContactDoc & { tag_count: number }> {
    let doc = contact;
    while (doc.tag_count === undefined) {
      await contacts(doc.account).setTagCount(doc._id, doc.rev, tagsOf(doc).length);
      doc = await reload(doc.account, doc._id);
    }
    return doc as ContactDoc & { tag_count: number };
  }

  /** Gives the contacts among `ids` stored before `tag_count` existed their count (see withTagCount). */
  async function ensureTagCounts(account: number, ids: number[]): Promise<void> {
    const legacy = await contacts(account).withoutTagCount(ids);
    for (const doc of legacy) await withTagCount(doc);
  }

  /**
   * Bulk ADD_TAG: adds each tag to the persons among `ids` where it is absent (keeping a present
   * tag's first time), one atomic write per tag, only on contacts holding fewer than TAG_MAX tags.
   * Refused before any write when a contact could not take them all; a contact that filled up in a
   * race meanwhile keeps its TAG_MAX tags and misses the rest.
   */
  async function addTagsTo(account: number, ids: number[], tags: string[]): Promise<void> {
    await ensureTagCounts(account, ids);
    const listed = [...new Set(tags)];
    const docs = await contacts(account).personTags(ids);
    const full = docs.filter((doc) => (doc.tag_count ?? 0) + listed.filter((tag) => !Object.hasOwn(doc.tag_times ?? {}, tag)).length > TAG_MAX).map((doc) => doc._id);
    if (full.length) throw validationFailed([{ field: 'data', message: `a contact holds at most ${TAG_MAX} tags; these would hold more (${full.slice(0, 10).join(', ')})` }]);
    const now = Date.now();
    for (const tag of listed) await contacts(account).addTag(ids, tag, now, TAG_MAX);
  }

  /** Bulk REMOVE_TAG: removes each listed tag that is present from the persons among `ids`, one atomic write per tag, counted in `tag_count`. */
  async function removeTagsFrom(account: number, ids: number[], tags: string[]): Promise<void> {
    await ensureTagCounts(account, ids);
    for (const tag of new Set(tags)) await contacts(account).removeTags(ids, [tag]);
  }

  return {
    /** C1, companies, persons of a company: in the order of `global_sort_key` when the list takes one. */
    list: (account: number, params: SortedPageParams, filter: { type?: 'PERSON' | 'COMPANY'; contact_company_id?: number } = {}): Promise<Page<ContactDoc>> =>
      contacts(account).list(deps.pager, filter, params),

    count: (account: number) => contacts(account).count(),

    // a hot read (C2)
    get: (account: number, id: number) => contacts(account).getFast(id),

    findByEmail,

    findByEmails: (account: number, emails: string[]) => contacts(account).byEmails(emails),

    /**
     * C3 (and C4 without id): claims the person's emails, then reserves a slot of the contact limit
     * (so the loser of an email race holds no slot), and inserts; a refusal or failure at any step
     * undoes the steps before it. A create that dies midway leaves its claims and its reservation to
     * expire (email-claims.ts, contact-slots.ts).
     */
    async create(owner: DomainUserDoc, input: ContactInput): Promise<ContactDoc> {
      const account = owner.account;
      const state: ContactState = {
        type: input.type ?? 'PERSON',
        tags: input.tags ?? [],
        lead_score: input.lead_score ?? 0,
        star_value: input.star_value ?? 0,
        contact_company_id: input.contact_company_id ?? null,
        properties: input.properties ?? [],
      };
      assertCampaignLists(input);
      assertContactRules(state);
      await assertCompany(account, state.contact_company_id);
      const emails = emailsOf(state.properties);
      const now = nowSeconds();
      let claimed: { id: number; emails: string[] } | undefined;
      let slot: SlotReservation | undefined;
      let insertSent = false;
      // undoes one attempt: its claims and its slot (an attempt whose id turned out taken, or the whole create)
      const undo = async () => {
        const [held, reserved] = [claimed, slot];
        claimed = slot = undefined;
        await Promise.all([held && claims.release(account, held.id, held.emails), reserved && slots.release(reserved)]);
      };
      let created: ContactDoc;
      try {
        created = await contacts(account).insert(
          async (id) => {
            insertSent = false;
            if (state.type === 'PERSON') claimed = { id, emails: await claims.claim(account, id, emails) };
            slot = await slots.reserve(account, id);
            return {
              _id: id,
              owner: owner._id,
              type: state.type,
              tag_times: tagTimes(state.tags),
              tag_count: new Set(state.tags).size,
              lead_score: state.lead_score,
              star_value: state.star_value,
              contact_company_id: state.contact_company_id,
              properties: state.properties.map(storedProperty),
              emails,
              campaignStatus: [],
              unsubscribeStatus: [],
              emailBounceStatus: [],
              widget_properties: input.widget_properties ?? null,
              created_time: now,
              updated_time: now,
              rev: 0,
            };
          },
          {
            beforeInsert: () => {
              if (slot) slots.assertInTime(slot);
              insertSent = true;
            },
            abandon: undo,
          },
        );
      } catch (err) {
        // An insert sent to a database that then stopped answering may have been applied: its slot and
        // claims stay, and are settled by whether the contact is stored (the slot once its reservation
        // expires, the claims once stale), never given away for a contact that exists.
        if (!(insertSent && toHttpError(err)?.code === 'database_unavailable')) await undo();
        throw err;
      }
      if (slot) await slots.settle(slot);
      return dropDeletedCompany(created);
    },

    /** C4 with an id: the sent fields replace the stored ones; fields not sent stay as they are. */
    async update(account: number, id: number, input: ContactInput): Promise<ContactDoc> {
      const updated = await edit(account, id, async (current) => {
        if (input.type && input.type !== current.type) {
          throw validationFailed([{ field: 'type', message: `cannot change from ${current.type} to ${input.type}` }]);
        }
        assertCampaignLists(input, current);
        const changes: Partial<ContactDoc> = {};
        if (input.tags) {
          changes.tag_times = tagTimes(input.tags, current.tag_times);
          changes.tag_count = Object.keys(changes.tag_times).length;
        }
        if (input.lead_score !== undefined) changes.lead_score = input.lead_score;
        if (input.star_value !== undefined) changes.star_value = input.star_value;
        if (input.properties) changes.properties = input.properties;
        if (input.widget_properties !== undefined) changes.widget_properties = input.widget_properties;
        if (input.contact_company_id !== undefined && input.contact_company_id !== current.contact_company_id) {
          await assertCompany(account, input.contact_company_id);
          changes.contact_company_id = input.contact_company_id;
        }
        return changes;
      });
      return dropDeletedCompany(updated);
    },

    /** C5: 204 either way; persons of a deleted company no longer point at it. */
    async remove(account: number, id: number): Promise<void> {
      const repository = contacts(account);
      if (!(await repository.exists(id))) return;
      await slots.settleStored(account, id);
      if (!(await repository.remove(id))) return;
      await Promise.all([slots.free(account), claims.releaseAll(account, id), repository.unlinkPersonsOf(id), deps.contactDeleted(account, id)]);
    },

    /**
     * C7 / edit tags: each tag is one atomic write that adds it only when absent (keeping its first
     * time) and only while the contact holds fewer than TAG_MAX tags (`tag_count`, kept by every tag
     * write), so concurrent adds can never store more. A request that cannot fit is refused before
     * any write; one that loses a race for the last places answers 400 saying how many it added.
     */
    async addTags(contact: ContactDoc, tags: string[]): Promise<void> {
      if (contact.type === 'COMPANY') throw companyRefused('tags');
      const current = await withTagCount(contact);
      const fresh = [...new Set(tags)].filter((tag) => !Object.hasOwn(current.tag_times ?? {}, tag));
      if (current.tag_count + fresh.length > TAG_MAX) throw tooManyTags(current.tag_count, 0);
      let added = 0;
      for (const tag of fresh) {
        if (await contacts(contact.account).addTag([contact._id], tag, Date.now(), TAG_MAX)) {
          added++;
          continue;
        }
        const now = await reload(contact.account, contact._id);
        if (!Object.hasOwn(now.tag_times ?? {}, tag)) throw tooManyTags(now.tag_count ?? TAG_MAX, added);
      }
    },

    /** C8 / delete tags: removes the listed tags that are present, each removal counted in `tag_count`. */
    async removeTags(contact: ContactDoc, tags: string[]): Promise<void> {
      if (contact.type === 'COMPANY') throw companyRefused('tags');
      await withTagCount(contact);
      const listed = [...new Set(tags)];
      const repository = contacts(contact.account);
      // one write when every listed tag is there (the usual case), else one per tag
      if (await repository.removeTags([contact._id], listed)) return;
      for (const tag of listed) await repository.removeTags([contact._id], [tag]);
    },

    addTagsTo,
    removeTagsFrom,

    /** The contacts of the account among `ids` (other ids are ignored), id and type only. */
    kindsOf: (account: number, ids: number[]) => contacts(account).kindsOf(ids),

    /** Bulk CHANGE_OWNER: one atomic write per contact, all in one statement. */
    async changeOwnerOf(account: number, ids: number[], owner: DomainUserDoc): Promise<void> {
      await contacts(account).setOwner(ids, owner._id);
    },

    /** The oldest contact with a phone property of exactly this value. */
    findByPhone: (account: number, phone: string) => contacts(account).byPhone(phone),

    /** C9: one atomic `$inc`; a change that would take the score below 0 is refused. */
    async addScore(contact: ContactDoc, delta: number): Promise<void> {
      if (contact.type === 'COMPANY') throw companyRefused('lead score');
      if (!(await contacts(contact.account).addScore(contact._id, delta))) {
        await reload(contact.account, contact._id);
        throw validationFailed([{ field: 'score', message: 'would take the lead score below 0' }]);
      }
    },

    /** edit/lead-score and edit/add-star: set one number atomically. */
    async setNumber(account: number, id: number, field: 'lead_score' | 'star_value', value: number): Promise<ContactDoc> {
      const contact = await reload(account, id);
      if (contact.type === 'COMPANY' && value !== 0) throw companyRefused(field === 'lead_score' ? 'lead score' : 'star value');
      await contacts(account).setNumber(id, field, value);
      return reload(account, id);
    },

    /** C11 and edit-properties: each property replaces the one with its name and subtype, or is added. */
    upsertProperties(account: number, id: number, properties: Property[]): Promise<ContactDoc> {
      return edit(account, id, (current) => {
        const next = [...current.properties];
        for (const property of properties) {
          const same = next.findIndex((p) => p.name === property.name && (p.subtype ?? '') === (property.subtype ?? ''));
          if (same >= 0) next[same] = property;
          else next.push(property);
        }
        return { properties: next };
      });
    },

    /** C12. */
    async changeOwner(account: number, id: number, owner: DomainUserDoc): Promise<ContactDoc> {
      if (!(await contacts(account).setOwner([id], owner._id))) throw contactNotFound(`with id ${id}`);
      return reload(account, id);
    },

    /** Search by the start of a name, email, company or title (case-sensitive, convention 4). */
    search(account: number, q: string, type: string | undefined, params: { page_size: number; cursor?: string }): Promise<Page<ContactDoc>> {
      const prefix = new RegExp(`^${escapeRegex(q)}`);
      const filter = {
        ...(type && { type }),
        properties: { $elemMatch: { name: { $in: ['first_name', 'last_name', 'name', 'email', 'company', 'title'] }, value: prefix } },
      };
      return contacts(account).search(deps.pager, filter, params, `${type ?? ''}:${q}`);
    },

    requireByEmail,
    reload,
  };
}

export type ContactService = ReturnType<typeof contactService>;
