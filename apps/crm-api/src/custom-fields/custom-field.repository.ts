import type { AccountScope, Changes } from '../store/account-scope';
import type { CustomFieldDoc } from './custom-field.model';
import type { DefinitionCache } from './definition-cache';

const OPTIONAL_TEXTS = ['field_description', 'field_data'] as const;

/**
 * The custom field definitions of one account. The checks of records being written read them
 * through the process's cache (`checking`); every write of a definition makes every process forget
 * the account's, so a change applies at once here and within REVOCATION_BOUND_MS on other replicas.
 */
export function customFieldRepository(scope: AccountScope<CustomFieldDoc>, cache: { definitions: DefinitionCache; account: number }) {
  const inScopes = (groups?: string[]) => scope.find(groups ? { scope_group: { $in: groups } } : {}).sort({ position: 1, _id: 1 });
  const forget = () => cache.definitions.revoke(cache.account);
  /** Runs a write of definitions, then has them forgotten, also when it failed (the database may have stored it all the same). */
  async function changing<R>(write: () => Promise<R>): Promise<R> {
    let result: R;
    try {
      result = await write();
    } catch (err) {
      await forget().catch(() => undefined);
      throw err;
    }
    await forget();
    return result;
  }

  return {
    get: scope.get,
    insert: (fields: Omit<CustomFieldDoc, '_id' | 'account'>) => changing(() => scope.insert((id) => ({ _id: id, ...fields }))),
    /** The whole definition replaced (PUT): the optional texts not given are removed; null when there is no such definition. */
    replace(id: number, fields: Changes<CustomFieldDoc>) {
      const absent = OPTIONAL_TEXTS.filter((name) => fields[name] === undefined);
      const unset = absent.length ? { $unset: Object.fromEntries(absent.map((name) => [name, 1])) } : {};
      return changing(() => scope.findOneAndUpdate({ _id: id }, { $set: fields, ...unset }, 'after'));
    },
    /** Deletes the definition; the deleted one, or null when there was none. */
    remove: (id: number) => changing(() => scope.takeOne({ _id: id })),
    /** The definitions of the scope groups (all when none named), in position order (position 0, the unsorted ones, first, in creation order), read from the database. */
    inScopes,
    /** The definitions of the scope groups that check a record being written or searched, from the process's cache (at most REVOCATION_BOUND_MS behind another replica's change). */
    async checking(groups: string[]): Promise<CustomFieldDoc[]> {
      const all = await cache.definitions.of(cache.account, () => inScopes().exec());
      return all.filter((definition) => groups.includes(definition.scope_group));
    },
    /** The definitions of a label (its key) in every scope. */
    withLabel: (labelKey: string) => scope.find({ label_key: labelKey }),
    count: () => scope.count(),
    /** Sets the position of one definition; whether it exists. */
    setPosition: (id: number, position: number, updated_time: number) => changing(async () => (await scope.updateOne({ _id: id }, { $set: { position, updated_time } })).matchedCount > 0),
  };
}

export type CustomFieldRepository = ReturnType<typeof customFieldRepository>;
