import { isDuplicateKey } from '@lib/mongo';
import type { AccountScope } from '../store/account-scope';
import type { CategoryDoc, CategoryType } from './category.model';

/** The categories of one account (deal sources among them). */
export function categoryRepository(scope: AccountScope<CategoryDoc>) {
  return {
    /** A listed category (never the hidden marker). */
    get: (id: number) => scope.findOne({ _id: id, hidden: { $ne: true } }),
    insert: (fields: Omit<CategoryDoc, '_id' | 'account'>) => scope.insert((id) => ({ _id: id, ...fields })),
    /** Inserts unless the type has that name already (made by another request meanwhile). */
    insertIfAbsent: (fields: Omit<CategoryDoc, '_id' | 'account'>) =>
      scope.insert((id) => ({ _id: id, ...fields })).then(
        () => true,
        (err: unknown) => {
          if (isDuplicateKey(err)) return false;
          throw err;
        },
      ),
    hasMarker: (type: CategoryType) => scope.exists({ entity_type: type, hidden: true }),
    /** The listed categories of the types (all when none), by order. */
    list: (types?: CategoryType[]) => scope.find({ ...(types && { entity_type: { $in: types } }), hidden: { $ne: true } }).sort({ entity_type: 1, order: 1, _id: 1 }),
    countOfType: (type: CategoryType) => scope.count({ entity_type: type, hidden: { $ne: true } }),
    isOfType: (id: number, type: CategoryType) => scope.exists({ _id: id, entity_type: type, hidden: { $ne: true } }),
    /** Relabels a listed category; null when there is none. */
    update: (id: number, changes: Pick<CategoryDoc, 'label' | 'name' | 'order' | 'updated_time'>) => scope.findOneAndUpdate({ _id: id, hidden: { $ne: true } }, { $set: changes }, 'after'),
    /** Deletes a listed category; the deleted one, or null. */
    remove: (id: number) => scope.takeOne({ _id: id, hidden: { $ne: true } }),
  };
}

export type CategoryRepository = ReturnType<typeof categoryRepository>;
