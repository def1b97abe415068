import type { SequenceInsertOptions } from '@lib/mongo';
import type { Page, PageParams, SortedPageParams } from '../paging';
import type { AccountScope, Changes, ScopedFilter } from '../store/account-scope';
import type { ContactDoc } from './contact.model';
import { nowSeconds } from '../input/epoch';

const tagPath = (tag: string) => `tag_times.${tag}`;
/** Every write bumps `rev`; whole-document edits are compare-and-set on it. */
const bumped = (set: Changes<ContactDoc> & Record<string, unknown>) => ({ $set: set, $inc: { rev: 1 } });

/** The contacts and companies of one account. */
export function contactRepository(scope: AccountScope<ContactDoc>) {
  return {
    get: scope.get,
    // hot reads (C2, search by email, the contacts of a page of deals): straight to the driver, the same documents lean() gave
    getFast: (id: number) => scope.driverFindOne({ _id: id }),
    byIdsFast: (ids: number[]) => scope.driverFind<ContactDoc>({ _id: { $in: ids } }),
    /** A person first when a company shares the email. */
    byEmailFast: (email: string) => scope.driverFindOne({ emails: email }, { sort: { type: -1, _id: 1 } }),

    byIds: (ids: number[]) => scope.find({ _id: { $in: ids } }),
    byEmails: (emails: string[]) => scope.find({ emails: { $in: emails } }).sort({ _id: 1 }),
    /** The oldest contact with a phone property of exactly this value. */
    byPhone: (phone: string) => scope.findOne({ properties: { $elemMatch: { name: 'phone', value: phone } } }).sort({ _id: 1 }),
    /** The ids among `ids` that name a contact. */
    async existingIds(ids: number[]): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      return new Set((await scope.find<{ _id: number }>({ _id: { $in: ids } }, { _id: 1 })).map((c) => c._id));
    },
    /** Id and type of the contacts among `ids`, by id. */
    kindsOf: (ids: number[]) => scope.find<Pick<ContactDoc, '_id' | 'type'>>({ _id: { $in: ids } }, { _id: 1, type: 1 }).sort({ _id: 1 }),
    exists: (id: number) => scope.exists({ _id: id }),
    companyExists: (id: number) => scope.exists({ _id: id, type: 'COMPANY' }),
    /** Whether the person `id` holds `email` (an email claim's holder). */
    personHolds: (id: number, email: string) => scope.exists({ _id: id, type: 'PERSON', emails: email }),
    count: () => scope.count(),
    countOwnedBy: (owner: number) => scope.count({ owner }),
    /** Contacts stored before `tag_count` existed, among `ids`. */
    withoutTagCount: (ids: number[]) => scope.find({ _id: { $in: ids }, tag_count: { $exists: false } }),
    /** Tags and tag counts of the persons among `ids`. */
    personTags: (ids: number[]) => scope.find<Pick<ContactDoc, '_id' | 'tag_times' | 'tag_count'>>({ _id: { $in: ids }, type: 'PERSON' }, { tag_times: 1, tag_count: 1 }),

    /** C1 and the lists of companies and of a company's persons, in the order of `global_sort_key` (on the driver: a hot read, its filter typed by the routes). */
    list: (filter: { type?: 'PERSON' | 'COMPANY'; contact_company_id?: number }, params: SortedPageParams): Promise<Page<ContactDoc>> =>
      scope.driverSorted(JSON.stringify(filter), filter, params),
    /** Search (`filter` names the properties), in creation order; the cursor is bound to `key`, the search as sent. */
    search: (filter: ScopedFilter, params: PageParams, key: string): Promise<Page<ContactDoc>> => scope.page(`search:${key}`, filter, params),
    /** A dynamic filter's page; its cursor is bound to `key`, the filter as sent. */
    filtered: (filter: ScopedFilter, params: SortedPageParams, key: string): Promise<Page<ContactDoc>> => scope.sorted(`filter:${key}`, filter, params),

    /**
     * Inserts the contact as built, every field given (what the model's defaults would add), with the
     * driver: the body was validated already, and a mongoose document costs more CPU than the insert.
     * `beforeInsert` runs right before each insert is sent.
     */
    insert: (build: (id: number) => Promise<Omit<ContactDoc, 'account'>>, options: { beforeInsert: () => void; abandon: SequenceInsertOptions<ContactDoc>['abandon'] }) =>
      scope.insert(build, { driver: true, ...options }),

    /** Takes the edit lease of the contact unless another live one holds it; false when not taken. */
    async takeLease(id: number, token: string, leaseMs: number): Promise<boolean> {
      const now = Date.now();
      const taken = await scope.updateOne({ _id: id, $or: [{ lock: { $exists: false } }, { lock_until: { $lt: now } }] }, { $set: { lock: token, lock_until: now + leaseMs } });
      return taken.matchedCount > 0;
    },
    releaseLease: (id: number, token: string) => scope.updateOne({ _id: id, lock: token }, { $unset: { lock: '', lock_until: '' } }),
    /** Writes an edit made under the lease `token`; false when the lease was lost or the contact deleted. */
    async writeLeased(id: number, token: string, changes: Changes<ContactDoc>): Promise<boolean> {
      const written = await scope.updateOne({ _id: id, lock: token }, bumped({ ...changes, updated_time: nowSeconds() }));
      return written.matchedCount > 0;
    },

    /** Unlinks the person from `company` unless it moved to another meanwhile. */
    unlinkCompany: (id: number, company: number) => scope.updateOne({ _id: id, contact_company_id: company }, bumped({ contact_company_id: null })),
    /** Sets `tag_count` on a contact stored before it existed, unless it changed since `rev`. */
    setTagCount: (id: number, rev: number, count: number) => scope.updateOne({ _id: id, rev, tag_count: { $exists: false } }, { $set: { tag_count: count } }),
    /** Adds `tag` (at `time`) to the persons among `ids` where it is absent and fewer than `max` tags are held; answers how many took it. */
    async addTag(ids: number[], tag: string, time: number, max: number): Promise<number> {
      const written = await scope.updateMany(
        { _id: { $in: ids }, type: 'PERSON', [tagPath(tag)]: { $exists: false }, tag_count: { $lt: max } },
        { $set: { [tagPath(tag)]: time, updated_time: nowSeconds() }, $inc: { tag_count: 1, rev: 1 } },
      );
      return written.modifiedCount;
    },
    /** The persons among `ids` holding `tag`. */
    holdingTag: async (ids: number[], tag: string) => (await scope.find<Pick<ContactDoc, '_id'>>({ _id: { $in: ids }, type: 'PERSON', [tagPath(tag)]: { $exists: true } }, { _id: 1 })).map((doc) => doc._id),
    /** Removes `tags` from the persons among `ids` holding every one of them; answers how many matched. */
    async removeTags(ids: number[], tags: string[]): Promise<number> {
      const present = Object.fromEntries(tags.map((tag) => [tagPath(tag), { $exists: true }]));
      const written = await scope.updateMany(
        { _id: { $in: ids }, type: 'PERSON', ...present },
        { $unset: Object.fromEntries(tags.map((tag) => [tagPath(tag), ''])), $set: { updated_time: nowSeconds() }, $inc: { tag_count: -tags.length, rev: 1 } },
      );
      return written.matchedCount;
    },
    /** `$inc` of the lead score, refused (false) when `guard` no longer matches. */
    async addScore(id: number, delta: number): Promise<boolean> {
      const guard = delta < 0 ? { lead_score: { $gte: -delta } } : {};
      const written = await scope.updateOne({ _id: id, ...guard }, { $inc: { lead_score: delta, rev: 1 }, $set: { updated_time: nowSeconds() } });
      return written.matchedCount > 0;
    },
    setNumber: (id: number, field: 'lead_score' | 'star_value', value: number) => scope.updateOne({ _id: id }, bumped({ [field]: value, updated_time: nowSeconds() })),
    /** Gives the contacts among `ids` to `owner`; false when none matched. */
    async setOwner(ids: number[], owner: number): Promise<boolean> {
      const written = await scope.updateMany({ _id: { $in: ids } }, bumped({ owner, updated_time: nowSeconds() }));
      return written.matchedCount > 0;
    },

    /** Deletes the contact; false when there was none. */
    async remove(id: number): Promise<boolean> {
      return (await scope.deleteOne({ _id: id })).deletedCount > 0;
    },
    /** The persons of `company`. */
    personsOf: async (company: number) => (await scope.find<Pick<ContactDoc, '_id'>>({ contact_company_id: company }, { _id: 1 })).map((doc) => doc._id),
    /** A deleted company's persons no longer point at it. */
    unlinkPersonsOf: (company: number) => scope.updateMany({ contact_company_id: company }, bumped({ contact_company_id: null })),
  };
}

export type ContactRepository = ReturnType<typeof contactRepository>;
