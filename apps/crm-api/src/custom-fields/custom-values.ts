import { validationFailed, type FieldIssue } from '@lib/errors';
import type { AccountStore } from '../store/crm-store';
import type { CustomFieldDoc } from './custom-field.model';
import { listOptions } from './custom-field.schemas';

/** A custom value as a record holds it: a contact's CUSTOM property or a deal's custom datum. */
export interface CustomValue {
  name: string;
  value?: string;
}

/** Which records a check is for: their scope group, and how they write dates. */
export type RecordKind = 'PERSON' | 'COMPANY' | 'DEAL';
const GROUP: Record<RecordKind, string> = { PERSON: 'CONTACT', COMPANY: 'COMPANY', DEAL: 'DEAL' };

/** At most this many record ids in a CONTACT or COMPANY value. */
export const RECORD_IDS_MAX = 100;
const EPOCH_SECONDS = /^\d{1,12}$/;
const NUMBER = /^-?\d{1,20}(\.\d{1,20})?$/;
/** The original's deal forms write dates as MM/dd/yyyy. */
const US_DATE = /^(\d{2})\/(\d{2})\/(\d{4})$/;

function isUsDate(value: string): boolean {
  const match = US_DATE.exec(value);
  if (!match) return false;
  const [month, day, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function isRecordIdList(value: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return false;
  }
  return Array.isArray(parsed) && parsed.length <= RECORD_IDS_MAX && parsed.every((id) => (typeof id === 'string' && /^[1-9]\d{0,15}$/.test(id)) || (Number.isSafeInteger(id) && (id as number) > 0));
}

/** The labels of the account's searchable custom fields of the scope groups (search and the dynamic filter find values under them). */
export async function searchableLabels(store: AccountStore, ...groups: string[]): Promise<Set<string>> {
  return new Set((await store.customFields.checking(groups)).filter((definition) => definition.searchable).map((definition) => definition.field_label));
}

/** What is wrong with a non-empty value of the definition, or undefined. */
function valueProblem(definition: CustomFieldDoc, value: string, kind: RecordKind): string | undefined {
  switch (definition.field_type) {
    case 'NUMBER':
      return NUMBER.test(value) ? undefined : 'must be a number (digits, an optional - and decimals after a .)';
    case 'DATE':
      if (EPOCH_SECONDS.test(value)) return undefined;
      if (kind === 'DEAL' && isUsDate(value)) return undefined;
      return kind === 'DEAL' ? 'must be a date: MM/dd/yyyy or epoch seconds' : 'must be a date in epoch seconds';
    case 'CHECKBOX':
      return value === 'on' || value === 'off' ? undefined : 'must be on or off';
    case 'LIST': {
      const options = listOptions(definition.field_data).filter((option) => option !== '');
      return options.includes(value) ? undefined : `must be one of the options of the list: ${options.slice(0, 20).join(', ')}${options.length > 20 ? ', …' : ''}`;
    }
    case 'CONTACT':
    case 'COMPANY':
      return isRecordIdList(value) ? undefined : `must be JSON array text of at most ${RECORD_IDS_MAX} record ids, e.g. ["5694691248963584"]`;
    default:
      return undefined; // TEXT, TEXTAREA, FORMULA: any text within the record's bounds
  }
}

const hasValue = (values: CustomValue[], label: string) => values.some((v) => v.name === label && (v.value ?? '').trim() !== '');
const same = (a: CustomValue, b: CustomValue) => a.name === b.name && (a.value ?? '') === (b.value ?? '');

/**
 * Checks the custom values of a record being written against the account's definitions of its
 * scope (`field` names where the values are: `properties` or `custom_data`, each issue naming the
 * entry). A value is checked only when it is new or changed (`before`: the stored record's), so a
 * definition changed since a record was written never makes that record unwritable; a name without
 * a definition is stored as sent (as the original did). A required definition needs a value in a new
 * record; an existing record may not lose one it holds.
 */
export async function assertCustomValues(store: AccountStore, kind: RecordKind, values: Array<CustomValue & { index: number }>, field: string, before?: CustomValue[]): Promise<void> {
  const definitions = await store.customFields.checking([GROUP[kind]]);
  if (definitions.length === 0) return;
  const byLabel = new Map(definitions.map((definition) => [definition.field_label, definition]));
  const issues: FieldIssue[] = [];
  for (const entry of values) {
    const definition = byLabel.get(entry.name);
    const value = entry.value ?? '';
    if (!definition || value === '' || before?.some((old) => same(old, entry))) continue;
    const problem = valueProblem(definition, value, kind);
    if (problem) issues.push({ field: `${field}.${entry.index}.value`, message: `${problem} (custom field ${definition.field_label}, ${definition.field_type})` });
  }
  for (const definition of definitions) {
    if (!definition.is_required || definition.field_type === 'FORMULA' || hasValue(values, definition.field_label)) continue;
    if (before && !hasValue(before, definition.field_label)) continue;
    issues.push({ field, message: `the custom field ${definition.field_label} is required: a value named ${definition.field_label}` });
  }
  if (issues.length) throw validationFailed(issues.slice(0, 20));
}
