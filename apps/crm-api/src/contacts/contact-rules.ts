import { validationFailed, type FieldIssue } from '@lib/errors';
import { z } from '@lib/validation';
import type { ContactType, Property } from './contact.model';

/** Allowed subtypes of the system properties that take one (spec table). */
export const SUBTYPES: Record<string, readonly string[]> = {
  email: ['work', 'personal'],
  phone: ['work', 'home', 'mobile', 'main', 'home fax', 'work fax', 'other'],
  address: ['home', 'postal', 'office'],
  website: ['URL', 'SKYPE', 'TWITTER', 'LINKEDIN', 'FACEBOOK', 'XING', 'FEED', 'GOOGLE_PLUS', 'FLICKR', 'GITHUB', 'YOUTUBE'],
};
const ANY_SUBTYPE = new Set(Object.values(SUBTYPES).flat());
const ADDRESS_KEYS = ['address', 'city', 'state', 'zip', 'country'];

export const TAG_PATTERN = /^[A-Za-z][A-Za-z0-9_ ]*$/;
/**
 * Bounds of one stored contact (apps/crm-api/README.md, "Limits"; docs/RESILIENCE.md, "Bounds"):
 * they hold for the stored document, whichever calls built it, and bound CONTACT_WORST_BYTES.
 * Tags stay few and short: each is a key of `tag_times` that every tag write counts (`tag_count`).
 */
export const TAG_MAX = 100;
export const TAG_LENGTH_MAX = 50;
export const MAX_PROPERTIES = 50;
/**
 * Characters of all property names, subtypes and values of one contact together (64 Ki): room for
 * long custom fields (a background note, an address block); one value may hold all of it.
 */
export const PROPERTY_TEXT_MAX = 65_536;
/** Widget settings (JSON text written by widgets, not typed by users). */
export const WIDGET_PROPERTIES_MAX = 2_000;

const emailFormat = z.email();
export const isEmail = (value: string) => emailFormat.safeParse(value).success;

/** A tag: starts with a letter; letters, digits, underscore and space only. */
export const tagName = z
  .string()
  .max(TAG_LENGTH_MAX, `must be at most ${TAG_LENGTH_MAX} characters`)
  .regex(TAG_PATTERN, 'must start with a letter and hold only letters, digits, underscore and space');

function propertyIssues(property: Property, field: string): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const { name, type, subtype, value } = property;
  if (subtype !== undefined && subtype !== '') {
    // own keys only: a property may be named `constructor` or `toString`
    const allowed = Object.hasOwn(SUBTYPES, name) ? SUBTYPES[name] : undefined;
    if (type === 'SYSTEM' && !allowed) {
      issues.push({ field: `${field}.subtype`, message: `the system property ${name} takes no subtype` });
    } else if (type === 'SYSTEM' && allowed && !allowed.includes(subtype)) {
      issues.push({ field: `${field}.subtype`, message: `must be one of ${allowed.join(', ')} for ${name}` });
    } else if (type === 'CUSTOM' && !ANY_SUBTYPE.has(subtype)) {
      issues.push({ field: `${field}.subtype`, message: 'must be a subtype of the email, phone, address or website lists' });
    }
  }
  if (type === 'SYSTEM' && name === 'email' && value !== undefined && value !== '' && !isEmail(value)) {
    issues.push({ field: `${field}.value`, message: 'is not a valid email address' });
  }
  if (type === 'SYSTEM' && name === 'address' && value !== undefined && value !== '') issues.push(...addressIssues(value, `${field}.value`));
  return issues;
}

function addressIssues(value: string, field: string): FieldIssue[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return [{ field, message: `must be a JSON object with the keys ${ADDRESS_KEYS.join(', ')}` }];
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return [{ field, message: `must be a JSON object with the keys ${ADDRESS_KEYS.join(', ')}` }];
  }
  return Object.entries(parsed).flatMap(([key, item]) => {
    if (!ADDRESS_KEYS.includes(key)) return [{ field, message: `has the unknown key "${key}" (allowed: ${ADDRESS_KEYS.join(', ')})` }];
    if (typeof item !== 'string') return [{ field, message: `key "${key}" must hold a string` }];
    return [];
  });
}

export interface ContactState {
  type: ContactType;
  tags: string[];
  lead_score: number;
  star_value: number;
  contact_company_id: number | null;
  properties: Property[];
}

/** The characters a contact's properties hold (names, subtypes and values), what PROPERTY_TEXT_MAX bounds. */
export const propertyText = (properties: Property[]) => properties.reduce((n, p) => n + p.name.length + (p.subtype?.length ?? 0) + (p.value?.length ?? 0), 0);

function sizeIssues(properties: Property[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (properties.length > MAX_PROPERTIES) {
    issues.push({ field: 'properties', message: `a contact holds at most ${MAX_PROPERTIES} properties (this would make ${properties.length})` });
  }
  const text = propertyText(properties);
  if (text > PROPERTY_TEXT_MAX) {
    issues.push({ field: 'properties', message: `a contact's properties hold at most ${PROPERTY_TEXT_MAX} characters of names, subtypes and values together (this would make ${text})` });
  }
  return issues;
}

const hasValue = (properties: Property[], name: string) => properties.some((p) => p.name === name && (p.value ?? '').trim() !== '');

/**
 * The rules that depend on the contact type and on property names; run on the complete contact
 * (after merging an update) so no write can leave a contact that breaks them.
 */
export function assertContactRules(contact: ContactState): void {
  const issues: FieldIssue[] = [...sizeIssues(contact.properties), ...contact.properties.flatMap((p, i) => propertyIssues(p, `properties.${i}`))];
  if (contact.type === 'PERSON' && !hasValue(contact.properties, 'first_name')) {
    issues.push({ field: 'properties', message: 'a person needs a first_name property with a value' });
  }
  if (contact.type === 'COMPANY') {
    if (!hasValue(contact.properties, 'name')) issues.push({ field: 'properties', message: 'a company needs a name property with a value' });
    if (contact.tags.length) issues.push({ field: 'tags', message: 'companies take no tags' });
    if (contact.lead_score) issues.push({ field: 'lead_score', message: 'companies take no lead score' });
    if (contact.star_value) issues.push({ field: 'star_value', message: 'companies take no star value' });
    if (contact.contact_company_id !== null) issues.push({ field: 'contact_company_id', message: 'only a person belongs to a company' });
  }
  if (issues.length) throw validationFailed(issues);
}

/** The values of a contact's email properties, without duplicates. */
export const emailsOf = (properties: Property[]) => [...new Set(properties.filter((p) => p.type === 'SYSTEM' && p.name === 'email' && p.value).map((p) => p.value as string))];
