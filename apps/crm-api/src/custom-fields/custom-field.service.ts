import { HttpError, badRequest } from '@lib/errors';
import { isDuplicateKey } from '@lib/mongo';
import { nowSeconds } from '../input/epoch';
import type { AccountStore } from '../store/crm-store';
import { scopeGroupOf, type CustomFieldDoc, type FieldScope } from './custom-field.model';
import { CUSTOM_FIELDS_MAX, type CustomFieldInput } from './custom-field.schemas';

/** The writable fields of a definition, as a PUT or POST body gives them (defaults for those not sent, as the original). */
type Definition = Omit<CustomFieldDoc, '_id' | 'account' | 'created_time' | 'updated_time'>;

const labelKey = (label: string) => label.trim().toLowerCase();

function definitionOf(input: Omit<CustomFieldInput, 'id'>): Definition {
  const scope = input.scope ?? 'CONTACT';
  return {
    field_label: input.field_label,
    label_key: labelKey(input.field_label),
    field_type: input.field_type,
    ...(input.field_description !== undefined && { field_description: input.field_description }),
    ...(input.field_data !== undefined && { field_data: input.field_data }),
    is_required: input.is_required ?? false,
    searchable: input.searchable ?? false,
    scope,
    scope_group: scopeGroupOf(scope),
    position: input.position ?? 0,
  };
}

export const customFieldNotFound = (id: number) => new HttpError(404, 'custom_field_not_found', `No custom field with id ${id}`);
/** The original's message (CustomFieldDef.save). */
const duplicateLabel = () => badRequest('Sorry, a custom field with that name is already present.', [{ field: 'field_label', message: 'is the label of another custom field of this scope' }]);
const tooMany = () => badRequest(`An account holds at most ${CUSTOM_FIELDS_MAX} custom fields`, [{ field: 'field_label', message: `the account holds ${CUSTOM_FIELDS_MAX} custom fields already` }]);

/** The scope groups a scope read lists (PERSON and CONTACT are one). */
export const groupsOfScope = (scope: FieldScope) => [scopeGroupOf(scope)];

/** Use cases on the custom field definitions of one account. */
export function customFieldService() {
  /**
   * The original's cross-scope rule: one label may be used in several scopes only with one type
   * (its records are searched by one key). Checked before the write; a race of two creates of one
   * label in two scopes with two types can pass it (each scope's own label stays unique by index).
   */
  async function assertSameTypeElsewhere(store: AccountStore, definition: Definition, self?: number): Promise<void> {
    const others = await store.customFields.withLabel(definition.label_key);
    const clash = others.find((other) => other._id !== self && other.scope_group !== definition.scope_group && other.field_type !== definition.field_type);
    if (clash) {
      throw badRequest(`A custom field with that name is already present in the scope ${clash.scope} with the type ${clash.field_type}; in another scope the name needs the same type`, [
        { field: 'field_type', message: `must be ${clash.field_type}, the type of the field with this label in ${clash.scope}` },
      ]);
    }
  }

  const orDuplicate = (err: unknown): never => {
    if (isDuplicateKey(err)) throw duplicateLabel();
    throw err;
  };

  return {
    /** POST: a new definition; 400 for a label the scope has (any letter case), or the account's CUSTOM_FIELDS_MAX-th. */
    async create(store: AccountStore, input: Omit<CustomFieldInput, 'id'>): Promise<CustomFieldDoc> {
      const definition = definitionOf(input);
      await assertSameTypeElsewhere(store, definition);
      if ((await store.customFields.count()) >= CUSTOM_FIELDS_MAX) throw tooMany();
      const now = nowSeconds();
      const doc = await store.customFields.insert({ ...definition, created_time: now, updated_time: now }).catch(orDuplicate);
      // concurrent creates may each have seen room: the ones past the bound undo themselves
      if ((await store.customFields.count()) > CUSTOM_FIELDS_MAX) {
        await store.customFields.remove(doc._id);
        throw tooMany();
      }
      return doc;
    },

    /** PUT: the whole definition replaced (fields not sent take their defaults, as in the original); stored values are kept as they are. */
    async replace(store: AccountStore, id: number, input: Omit<CustomFieldInput, 'id'>): Promise<CustomFieldDoc> {
      const definition = definitionOf(input);
      if (!(await store.customFields.get(id))) throw customFieldNotFound(id);
      await assertSameTypeElsewhere(store, definition, id);
      const doc = await store.customFields.replace(id, { ...definition, updated_time: nowSeconds() }).catch(orDuplicate);
      if (!doc) throw customFieldNotFound(id);
      return doc;
    },

    /** DELETE: 204 also for an id the account has not (the original's answer); values stored under the label stay on the records. */
    async remove(store: AccountStore, id: number): Promise<void> {
      await store.customFields.remove(id);
    },

    async get(store: AccountStore, id: number): Promise<CustomFieldDoc> {
      const doc = await store.customFields.get(id);
      if (!doc) throw customFieldNotFound(id);
      return doc;
    },

    /** The definitions of a scope (all scopes when none), in position order; FORMULA fields only when `withFormulas`. */
    async list(store: AccountStore, scope: FieldScope | undefined, options: { withFormulas: boolean }): Promise<CustomFieldDoc[]> {
      const docs = await store.customFields.inScopes(scope && groupsOfScope(scope));
      return options.withFormulas ? docs : docs.filter((doc) => doc.field_type !== 'FORMULA');
    },

    /** POST positions: each definition's position set (one atomic write each); 400 naming ids the account has not, before any write. */
    async setPositions(store: AccountStore, positions: Array<{ id: number; position: number }>): Promise<void> {
      const ids = new Set((await store.customFields.inScopes()).map((doc) => doc._id));
      const unknown = positions.filter((p) => !ids.has(p.id)).map((p) => p.id);
      if (unknown.length) throw badRequest(`No custom field with the ids ${unknown.slice(0, 20).join(', ')}`, [{ field: 'id', message: 'names no custom field of this account' }]);
      const now = nowSeconds();
      for (const { id, position } of positions) await store.customFields.setPosition(id, position, now);
    },
  };
}

export type CustomFieldService = ReturnType<typeof customFieldService>;
