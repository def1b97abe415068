import type { AccountScope, Changes } from '../store/account-scope';
import type { CustomFieldDoc } from './custom-field.model';

const OPTIONAL_TEXTS = ['field_description', 'field_data'] as const;

/** The custom field definitions of one account. */
export function customFieldRepository(scope: AccountScope<CustomFieldDoc>) {
  return {
    get: scope.get,
    insert: (fields: Omit<CustomFieldDoc, '_id' | 'account'>) => scope.insert((id) => ({ _id: id, ...fields })),
    /** The whole definition replaced (PUT): the optional texts not given are removed; null when there is no such definition. */
    replace(id: number, fields: Changes<CustomFieldDoc>) {
      const absent = OPTIONAL_TEXTS.filter((name) => fields[name] === undefined);
      const unset = absent.length ? { $unset: Object.fromEntries(absent.map((name) => [name, 1])) } : {};
      return scope.findOneAndUpdate({ _id: id }, { $set: fields, ...unset }, 'after');
    },
    /** Deletes the definition; the deleted one, or null when there was none. */
    remove: (id: number) => scope.takeOne({ _id: id }),
    /** The definitions of the scope groups (all when none named), in position order (position 0, the unsorted ones, first, in creation order). */
    inScopes: (groups?: string[]) => scope.find(groups ? { scope_group: { $in: groups } } : {}).sort({ position: 1, _id: 1 }),
    /** The definitions of a label (its key) in every scope. */
    withLabel: (labelKey: string) => scope.find({ label_key: labelKey }),
    count: () => scope.count(),
    /** Sets the position of one definition; whether it exists. */
    async setPosition(id: number, position: number, updated_time: number): Promise<boolean> {
      return (await scope.updateOne({ _id: id }, { $set: { position, updated_time } })).matchedCount > 0;
    },
  };
}

export type CustomFieldRepository = ReturnType<typeof customFieldRepository>;
