import { badRequest } from '@lib/errors';
import { isDuplicateKey } from '@lib/mongo';
import { nowSeconds } from '../input/epoch';
import type { AccountStore } from '../store/crm-store';
import type { CategoryDoc, CategoryType } from './category.model';
import { CATEGORIES_PER_TYPE_MAX, type CategoryInput, type CategoryUpdate } from './category.schemas';

/**
 * The categories each account starts with, made on the first read of their type (as the original's
 * CategoriesUtil did), then never again: a hidden marker records that they were made, so a deleted
 * default stays deleted.
 */
export const DEFAULT_CATEGORIES: Partial<Record<CategoryType, string[]>> = {
  DEAL_SOURCE: ['Website', 'Referral', 'Ads'],
  DEAL_LOST_REASON: ['Unqualified', 'Lost to competitor', 'Expensive'],
};
const SEEDED = Object.keys(DEFAULT_CATEGORIES) as CategoryType[];

/** The original's messages (CategoriesAPI). */
function duplicate(type: CategoryType) {
  const what = type === 'DEAL_SOURCE' ? 'Source' : type === 'DEAL_LOST_REASON' ? 'Reason' : 'Category';
  return badRequest(`${what} with this name already exists.`, [{ field: 'label', message: 'is the label of another category of this type (any letter case)' }]);
}
const tooMany = (type: CategoryType) =>
  badRequest(`An account holds at most ${CATEGORIES_PER_TYPE_MAX} categories of a type`, [{ field: 'entity_type', message: `the account holds ${CATEGORIES_PER_TYPE_MAX} ${type} categories already` }]);
const unknownCategory = () => badRequest('Unable to delete Category. Please check the input.', [{ field: 'id', message: 'names no category of this account' }]);
const nameOf = (label: string) => label.toUpperCase();

/** Use cases on the categories (deal sources, lost reasons…) of one account. */
export function categoryService() {
  /** Makes the defaults of the type once per account; idempotent, so replicas reading at once make them once. */
  async function ensureDefaults(store: AccountStore, type: CategoryType): Promise<void> {
    const labels = DEFAULT_CATEGORIES[type];
    if (!labels || (await store.categories.hasMarker(type))) return;
    const now = nowSeconds();
    for (const [index, label] of labels.entries()) {
      await store.categories.insertIfAbsent({ label, name: nameOf(label), entity_type: type, order: index + 1, created_time: now, updated_time: now });
    }
    // last: a read that dies before this makes the missing ones again, and only those
    const marker = `Default_${type.toLowerCase()}_`;
    await store.categories.insertIfAbsent({ label: marker, name: nameOf(marker), entity_type: type, order: 0, hidden: true, created_time: now, updated_time: now });
  }

  return {
    /** GET: the categories of a type (every type when none), by order; a type with defaults gets them on its first read. */
    async list(store: AccountStore, type: CategoryType | undefined): Promise<CategoryDoc[]> {
      for (const seeded of type ? [type] : SEEDED) await ensureDefaults(store, seeded);
      return store.categories.list(type && [type]);
    },

    /** POST: a new category; 400 for a label its type has (any letter case) or past CATEGORIES_PER_TYPE_MAX. */
    async create(store: AccountStore, input: Omit<CategoryInput, 'id'>): Promise<CategoryDoc> {
      const type = input.entity_type;
      await ensureDefaults(store, type);
      if ((await store.categories.countOfType(type)) >= CATEGORIES_PER_TYPE_MAX) throw tooMany(type);
      const now = nowSeconds();
      const doc = await store.categories
        .insert({ label: input.label, name: nameOf(input.label), entity_type: type, order: input.order ?? 0, created_time: now, updated_time: now })
        .catch((err: unknown) => {
          throw isDuplicateKey(err) ? duplicate(type) : err;
        });
      // concurrent creates may each have seen room: the ones past the bound undo themselves
      if ((await store.categories.countOfType(type)) > CATEGORIES_PER_TYPE_MAX) {
        await store.categories.remove(doc._id);
        throw tooMany(type);
      }
      return doc;
    },

    /** PUT: relabel (and reorder); `created_time` kept. 400 for an id the account has not (as the original's `Invalid category`), or another type. */
    async update(store: AccountStore, input: CategoryUpdate): Promise<CategoryDoc> {
      const current = await store.categories.get(input.id);
      if (!current) throw badRequest(`No category with id ${input.id}`, [{ field: 'id', message: 'names no category of this account' }]);
      if (input.entity_type !== undefined && input.entity_type !== current.entity_type) {
        throw badRequest('A category does not change type', [{ field: 'entity_type', message: `must be ${current.entity_type}, the category's type` }]);
      }
      const doc = await store.categories
        .update(input.id, { label: input.label, name: nameOf(input.label), order: input.order ?? current.order, updated_time: nowSeconds() })
        .catch((err: unknown) => {
          throw isDuplicateKey(err) ? duplicate(current.entity_type) : err;
        });
      if (!doc) throw badRequest(`No category with id ${input.id}`, [{ field: 'id', message: 'names no category of this account' }]);
      return doc;
    },

    /**
     * DELETE: the category goes; deals that named it as their source get `deal_source_id` 0 (no
     * source), so no deal points at a source that is gone. 400 for an id the account has not (the original's answer).
     */
    async remove(store: AccountStore, id: number): Promise<void> {
      const doc = await store.categories.remove(id);
      if (!doc) throw unknownCategory();
      if (doc.entity_type === 'DEAL_SOURCE') await store.deals.clearSource(id);
    },
  };
}

export type CategoryService = ReturnType<typeof categoryService>;
