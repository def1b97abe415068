import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { HttpError, badRequest, conflict, toHttpError, validationFailed } from '@lib/errors';
import { escapeRegex, retryWhileRaced } from '@lib/mongo';
import type { DomainUserDoc } from '../accounts/domain-user.model';
import { contactDeleted } from '../deletions/contact-deletion';
import type { PageParams, Shown, ShownPage, SortedPageParams } from '../paging';
import type { Changes } from '../store/account-scope';
import type { AccountStore } from '../store/crm-store';
import type { ContactEvents } from './contact-events';
import { withOwners } from './contact-links';
import { assertContactRules, emailsOf, TAG_MAX, type ContactState } from './contact-rules';
import type { ContactDoc, Property } from './contact.model';
import type { ContactInput } from './contact.schemas';
import type { ContactSlots, SlotReservation } from './contact-slots';
import { emailClaims } from './email-claims';
import { nowSeconds } from '../input/epoch';
import { assertCustomValues, searchableLabels } from '../custom-fields/custom-values';

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

/** A contact as answered: with its owner (`domainUser`). */
export type ShownContact = Shown<ContactDoc, DomainUserDoc[]>;
/** A page of contacts, read with their owners. */
export type ContactPage = ShownPage<ContactDoc, DomainUserDoc[]>;

/** Whether a tag call adds the tags or removes them. */
export type TagChange = 'add' | 'remove';

/** The CUSTOM properties checked against the account's custom fields of the contact's type (only those new or changed since `before`). */
function assertCustomProperties(store: AccountStore, type: ContactDoc['type'], properties: Property[], before?: Property[]): Promise<void> {
  const custom = (list: Property[]) => list.map((property, index) => ({ ...property, index })).filter((property) => property.type === 'CUSTOM');
  return assertCustomValues(store, type, custom(properties), 'properties', before && custom(before));
}

/** Use cases on the contacts and companies of one account: every call takes the account's store. */
export function contactService(slots: ContactSlots, events: ContactEvents) {
  const claims = emailClaims();

  /** The contact with its owner, as its view shows it (one read). */
  const shown = async (store: AccountStore, contact: ContactDoc): Promise<ShownContact> => ({ item: contact, related: (await withOwners(store, [contact])).owners });
  const shownPage = (store: AccountStore, page: ContactPage['page']): ContactPage => ({ page, related: async (records) => (await withOwners(store, records)).owners });

  async function assertCompany(store: AccountStore, id: number | null): Promise<void> {
    if (id === null) return;
    if (!(await store.contacts.companyExists(id))) {
      throw validationFailed([{ field: 'contact_company_id', message: `names no company of this account (${id})` }]);
    }
  }

  /**
   * After a person is written with a company: when the company was deleted meanwhile (after the
   * check, before the write, so its delete missed this person), unlink, as that delete would have.
   */
  async function dropDeletedCompany(store: AccountStore, doc: ContactDoc): Promise<ContactDoc> {
    const company = doc.contact_company_id;
    const repository = store.contacts;
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

  /** The contact with the email: a person first when a company shares the email. */
  async function requireByEmail(store: AccountStore, email: string): Promise<ContactDoc> {
    const contact = await store.contacts.byEmailFast(email);
    if (!contact) throw noContactWithEmail(email);
    return contact;
  }

  async function reload(store: AccountStore, id: number): Promise<ContactDoc> {
    const doc = await store.contacts.get(id);
    if (!doc) throw contactNotFound(`with id ${id}`);
    return doc;
  }

  /**
   * Runs `work` holding a short lease on the contact: edits of one contact run one at a time, so
   * the emails an edit claims, its write and the emails it releases never interleave with another
   * edit of the same contact. Atomic calls (tags, score) need no lease. An edit that cannot get the
   * lease within LEASE_WAIT_MS is a 409; a lease left by a crashed process expires after LEASE_MS.
   */
  async function withLease<T>(store: AccountStore, id: number, work: (token: string) => Promise<T>): Promise<T> {
    const token = randomUUID();
    const repository = store.contacts;
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
  function edit(store: AccountStore, id: number, next: (current: ContactDoc) => Promise<Changes<ContactDoc>> | Changes<ContactDoc>): Promise<ContactDoc> {
    return withLease(store, id, async (token) => {
      const current = await reload(store, id);
      const changes = await next(current);
      const merged = { ...current, ...changes };
      assertContactRules({ ...merged, tags: tagsOf(merged) });
      await assertCustomProperties(store, merged.type, merged.properties, current.properties);
      const emails = emailsOf(merged.properties);
      const added = merged.type === 'PERSON' ? emails.filter((e) => !current.emails.includes(e)) : [];
      await claims.claim(store, id, added);
      const written = await events
        .updating(store, () => store.contacts.writeLeased(id, token, { ...changes, emails }), (done) => (done ? [id] : []))
        .catch(async (err) => {
          await claims.release(store, id, added);
          throw err;
        });
      if (!written) {
        await claims.release(store, id, added); // deleted meanwhile, or the lease ran out
        throw conflict(`Contact ${id} changed while it was being edited; try again`);
      }
      await claims.release(store, id, current.emails.filter((e) => !emails.includes(e)));
      return reload(store, id);
    });
  }

  /**
   * The contact with its `tag_count`; a contact stored before the count existed gets it first
   * (compare-and-set on `rev`, which every write bumps, so no concurrent tag write is miscounted).
   */
  async function withTagCount(store: AccountStore, contact: ContactDoc): Promise<ContactDoc & { tag_count: number }> {
    let doc = contact;
    while (doc.tag_count === undefined) {
      await store.contacts.setTagCount(doc._id, doc.rev, tagsOf(doc).length);
      doc = await reload(store, doc._id);
    }
    return doc as ContactDoc & { tag_count: number };
  }

  /** Gives the contacts among `ids` stored before `tag_count` existed their count (see withTagCount). */
  async function ensureTagCounts(store: AccountStore, ids: number[]): Promise<void> {
    const legacy = await store.contacts.withoutTagCount(ids);
    for (const doc of legacy) await withTagCount(store, doc);
  }

  /**
   * Bulk ADD_TAG: adds each tag to the persons among `ids` where it is absent (keeping a present
   * tag's first time), one atomic write per tag, only on contacts holding fewer than TAG_MAX tags.
   * Refused before any write when a contact could not take them all; a contact that filled up in a
   * race meanwhile keeps its TAG_MAX tags and misses the rest.
   */
  async function addTagsTo(store: AccountStore, ids: number[], tags: string[]): Promise<void> {
    await ensureTagCounts(store, ids);
    const listed = [...new Set(tags)];
    const docs = await store.contacts.personTags(ids);
    const full = docs.filter((doc) => (doc.tag_count ?? 0) + listed.filter((tag) => !Object.hasOwn(doc.tag_times ?? {}, tag)).length > TAG_MAX).map((doc) => doc._id);
    if (full.length) throw validationFailed([{ field: 'data', message: `a contact holds at most ${TAG_MAX} tags; these would hold more (${full.slice(0, 10).join(', ')})` }]);
    const now = Date.now();
    // the persons that took the tag are those holding it at this write's time
    const took = (tag: string) => docs.filter((doc) => !Object.hasOwn(doc.tag_times ?? {}, tag)).map((doc) => doc._id);
    for (const tag of listed) await events.updating(store, () => store.contacts.addTag(ids, tag, now, TAG_MAX), (added) => (added ? took(tag) : []));
  }

  /** Bulk REMOVE_TAG: removes each listed tag that is present from the persons among `ids`, one atomic write per tag, counted in `tag_count`. */
  async function removeTagsFrom(store: AccountStore, ids: number[], tags: string[]): Promise<void> {
    await ensureTagCounts(store, ids);
    for (const tag of new Set(tags)) await events.updatingSeen(store, () => store.contacts.holdingTag(ids, tag), () => store.contacts.removeTags(ids, [tag]));
  }

  /**
   * Adds tags to one contact: each tag is one atomic write that adds it only when absent (keeping
   * its first time) and only while the contact holds fewer than TAG_MAX tags (`tag_count`, kept by
   * every tag write), so concurrent adds can never store more. A request that cannot fit is refused
   * before any write; one that loses a race for the last places answers 400 saying how many it added.
   */
  async function addTags(store: AccountStore, contact: ContactDoc, tags: string[]): Promise<void> {
    if (contact.type === 'COMPANY') throw companyRefused('tags');
    const current = await withTagCount(store, contact);
    const fresh = [...new Set(tags)].filter((tag) => !Object.hasOwn(current.tag_times ?? {}, tag));
    if (current.tag_count + fresh.length > TAG_MAX) throw tooManyTags(current.tag_count, 0);
    let added = 0;
    for (const tag of fresh) {
      if (await events.updating(store, () => store.contacts.addTag([contact._id], tag, Date.now(), TAG_MAX), (took) => (took ? [contact._id] : []))) {
        added++;
        continue;
      }
      const now = await reload(store, contact._id);
      if (!Object.hasOwn(now.tag_times ?? {}, tag)) throw tooManyTags(now.tag_count ?? TAG_MAX, added);
    }
  }

  /** Removes the listed tags that are present from one contact, each removal counted in `tag_count`. */
  async function removeTags(store: AccountStore, contact: ContactDoc, tags: string[]): Promise<void> {
    if (contact.type === 'COMPANY') throw companyRefused('tags');
    await withTagCount(store, contact);
    const listed = [...new Set(tags)];
    // one write when every listed tag is there (the usual case), else one per tag
    const removing = (list: string[]) => events.updating(store, () => store.contacts.removeTags([contact._id], list), (matched) => (matched ? [contact._id] : []));
    if (await removing(listed)) return;
    for (const tag of listed) await removing([tag]);
  }

  const changeTags = (store: AccountStore, contact: ContactDoc, tags: string[], change: TagChange) =>
    change === 'add' ? addTags(store, contact, tags) : removeTags(store, contact, tags);

  /** C11 and edit-properties: each property replaces the one with its name and subtype, or is added. */
  function upsertProperties(store: AccountStore, id: number, properties: Property[]): Promise<ContactDoc> {
    return edit(store, id, (current) => {
      const next = [...current.properties];
      for (const property of properties) {
        const same = next.findIndex((p) => p.name === property.name && (p.subtype ?? '') === (property.subtype ?? ''));
        if (same >= 0) next[same] = property;
        else next.push(property);
      }
      return { properties: next };
    });
  }

  /**
   * C3 (and C4 without id): claims the person's emails, then reserves a slot of the contact limit
   * (so the loser of an email race holds no slot), and inserts; a refusal or failure at any step
   * undoes the steps before it. A create that dies midway leaves its claims and its reservation to
   * expire (email-claims.ts, contact-slots.ts). The owner is the caller, shown as it signed in.
   */
  async function create(store: AccountStore, owner: DomainUserDoc, input: ContactInput): Promise<ShownContact> {
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
    await assertCustomProperties(store, state.type, state.properties);
    await assertCompany(store, state.contact_company_id);
    const emails = emailsOf(state.properties);
    const now = nowSeconds();
    let claimed: { id: number; emails: string[] } | undefined;
    let slot: SlotReservation | undefined;
    let insertSent = false;
    // undoes one attempt: its claims and its slot (an attempt whose id turned out taken, or the whole create)
    const undo = async () => {
      const [held, reserved] = [claimed, slot];
      claimed = slot = undefined;
      await Promise.all([held && claims.release(store, held.id, held.emails), reserved && slots.release(store, reserved)]);
    };
    let created: ContactDoc;
    try {
      created = await events.creating(store, owner, () => store.contacts.insert(
        async (id) => {
          insertSent = false;
          if (state.type === 'PERSON') claimed = { id, emails: await claims.claim(store, id, emails) };
          slot = await slots.reserve(store, id);
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
      ));
    } catch (err) {
      // An insert sent to a database that then stopped answering may have been applied: its slot and
      // claims stay, and are settled by whether the contact is stored (the slot once its reservation
      // expires, the claims once stale), never given away for a contact that exists.
      if (!(insertSent && toHttpError(err)?.code === 'database_unavailable')) await undo();
      throw err;
    }
    if (slot) await slots.settle(store, slot);
    return { item: await dropDeletedCompany(store, created), related: [owner] };
  }

  /** C4 with an id: the sent fields replace the stored ones; fields not sent stay as they are. */
  async function update(store: AccountStore, id: number, input: ContactInput): Promise<ContactDoc> {
    const updated = await edit(store, id, async (current) => {
      if (input.type && input.type !== current.type) {
        throw validationFailed([{ field: 'type', message: `cannot change from ${current.type} to ${input.type}` }]);
      }
      assertCampaignLists(input, current);
      const changes: Changes<ContactDoc> = {};
      if (input.tags) {
        changes.tag_times = tagTimes(input.tags, current.tag_times);
        changes.tag_count = Object.keys(changes.tag_times).length;
      }
      if (input.lead_score !== undefined) changes.lead_score = input.lead_score;
      if (input.star_value !== undefined) changes.star_value = input.star_value;
      if (input.properties) changes.properties = input.properties;
      if (input.widget_properties !== undefined) changes.widget_properties = input.widget_properties;
      if (input.contact_company_id !== undefined && input.contact_company_id !== current.contact_company_id) {
        await assertCompany(store, input.contact_company_id);
        changes.contact_company_id = input.contact_company_id;
      }
      return changes;
    });
    return dropDeletedCompany(store, updated);
  }

  return {
    /** C1, companies, persons of a company: in the order of `global_sort_key` when the list takes one. */
    list: async (store: AccountStore, params: SortedPageParams, filter: { type?: 'PERSON' | 'COMPANY'; contact_company_id?: number } = {}): Promise<ContactPage> =>
      shownPage(store, await store.contacts.list(filter, params)),

    count: (store: AccountStore) => store.contacts.count(),

    /** C2 (a hot read); null when the account has no such contact. */
    async get(store: AccountStore, id: number): Promise<ShownContact | null> {
      const doc = await store.contacts.getFast(id);
      return doc && shown(store, doc);
    },

    /** The contact with this email (a person first when a company shares it); null when none has it. */
    async findByEmail(store: AccountStore, email: string): Promise<ShownContact | null> {
      const doc = await store.contacts.byEmailFast(email);
      return doc && shown(store, doc);
    },

    /** The oldest contact with a phone property of exactly this value; null when none has it. */
    async findByPhone(store: AccountStore, phone: string): Promise<ShownContact | null> {
      const doc = await store.contacts.byPhone(phone);
      return doc && shown(store, doc);
    },

    /** C6: the contacts with any of the emails, with their owners. */
    findByEmails: async (store: AccountStore, emails: string[]) => withOwners(store, await store.contacts.byEmails(emails)),

    create,

    /** C4: the contact with the id, updated; without an id, a new contact of the caller. */
    async save(store: AccountStore, caller: DomainUserDoc, input: ContactInput): Promise<ShownContact> {
      if (input.id === undefined) return create(store, caller, input);
      return shown(store, await update(store, input.id, input));
    },

    /** C5: 204 either way; persons of a deleted company no longer point at it. */
    async remove(store: AccountStore, id: number): Promise<void> {
      const repository = store.contacts;
      if (!(await repository.exists(id))) return;
      await slots.settleStored(store, id);
      if (!(await events.deleting(store, id, () => repository.remove(id)))) return;
      // a deleted company's persons lose it: each is reported updated
      const unlinkPersons = () => events.updatingSeen(store, () => repository.personsOf(id), () => repository.unlinkPersonsOf(id));
      await Promise.all([slots.free(store), claims.releaseAll(store, id), unlinkPersons(), contactDeleted(store, id)]);
    },

    /** C7 / C8: adds or removes tags of the contact with this email. */
    async changeTagsByEmail(store: AccountStore, email: string, tags: string[], change: TagChange): Promise<void> {
      await changeTags(store, await requireByEmail(store, email), tags, change);
    },

    /** edit/tags, delete/tags: adds or removes tags of the contact with this id; the contact after the change. */
    async changeTags(store: AccountStore, id: number, tags: string[], change: TagChange): Promise<ShownContact> {
      await changeTags(store, await reload(store, id), tags, change);
      return shown(store, await reload(store, id));
    },

    /** Bulk ADD_TAG and REMOVE_TAG on the persons among `ids`. */
    changeTagsOf: (store: AccountStore, ids: number[], tags: string[], change: TagChange) => (change === 'add' ? addTagsTo(store, ids, tags) : removeTagsFrom(store, ids, tags)),

    /** The contacts of the account among `ids` (other ids are ignored), id and type only. */
    kindsOf: (store: AccountStore, ids: number[]) => store.contacts.kindsOf(ids),

    /** Bulk CHANGE_OWNER: one atomic write per contact, all in one statement. */
    async changeOwnerOf(store: AccountStore, ids: number[], owner: DomainUserDoc): Promise<void> {
      await events.updating(store, () => store.contacts.setOwner(ids, owner._id), () => ids);
    },

    /** C9: one atomic `$inc` on the contact with this email; a change that would take the score below 0 is refused. The contact after it. */
    async addScore(store: AccountStore, email: string, delta: number): Promise<ShownContact> {
      const contact = await requireByEmail(store, email);
      if (contact.type === 'COMPANY') throw companyRefused('lead score');
      if (!(await events.updating(store, () => store.contacts.addScore(contact._id, delta), (added) => (added ? [contact._id] : [])))) {
        await reload(store, contact._id);
        throw validationFailed([{ field: 'score', message: 'would take the lead score below 0' }]);
      }
      return shown(store, await reload(store, contact._id));
    },

    /** A campaign's ADD_SCORE step: one atomic `$inc` on the person with this id; a change that would take the score below 0 is refused (400). */
    async addScoreTo(store: AccountStore, id: number, delta: number): Promise<void> {
      const contact = await reload(store, id);
      if (contact.type === 'COMPANY') throw companyRefused('lead score');
      if (!(await events.updating(store, () => store.contacts.addScore(id, delta), (added) => (added ? [id] : [])))) {
        throw validationFailed([{ field: 'score', message: 'would take the lead score below 0' }]);
      }
    },

    /** edit/lead-score and edit/add-star: set one number atomically; the contact after it. */
    async setNumber(store: AccountStore, id: number, field: 'lead_score' | 'star_value', value: number): Promise<ShownContact> {
      const contact = await reload(store, id);
      if (contact.type === 'COMPANY' && value !== 0) throw companyRefused(field === 'lead_score' ? 'lead score' : 'star value');
      await events.updating(store, () => store.contacts.setNumber(id, field, value), (set) => (set.matchedCount ? [id] : []));
      return shown(store, await reload(store, id));
    },

    /** edit-properties. */
    upsertProperties: async (store: AccountStore, id: number, properties: Property[]) => shown(store, await upsertProperties(store, id, properties)),

    /** C11: the property on the contact with this email. */
    async upsertPropertyByEmail(store: AccountStore, email: string, property: Property): Promise<ShownContact> {
      const contact = await requireByEmail(store, email);
      return shown(store, await upsertProperties(store, contact._id, [property]));
    },

    /** C12: gives the contact to the user of the account with this email. */
    async changeOwner(store: AccountStore, id: number, ownerEmail: string): Promise<ShownContact> {
      const owner = await store.users.byEmail(ownerEmail);
      if (!owner) throw validationFailed([{ field: 'owner_email', message: `User with email ${ownerEmail} does not exist` }]);
      if (!(await events.updating(store, () => store.contacts.setOwner([id], owner._id), (set) => (set ? [id] : [])))) throw contactNotFound(`with id ${id}`);
      return { item: await reload(store, id), related: [owner] };
    },

    /** Search by the start of a name, email, company or title, or of a searchable custom field's value (case-sensitive, convention 4). */
    async search(store: AccountStore, q: string, type: string | undefined, params: PageParams): Promise<ContactPage> {
      const prefix = new RegExp(`^${escapeRegex(q)}`);
      const custom = await searchableLabels(store, ...(type === 'PERSON' ? ['CONTACT'] : type === 'COMPANY' ? ['COMPANY'] : ['CONTACT', 'COMPANY']));
      const filter = {
        ...(type && { type }),
        properties: { $elemMatch: { name: { $in: ['first_name', 'last_name', 'name', 'email', 'company', 'title', ...custom] }, value: prefix } },
      };
      return shownPage(store, await store.contacts.search(filter, params, `${type ?? ''}:${q}`));
    },

    /** A dynamic filter's page of contacts (filters/filter.service.ts), shown with their owners. */
    shownPage,

    requireByEmail,
  };
}

export type ContactService = ReturnType<typeof contactService>;
