import { validationFailed, type FieldIssue } from '@lib/errors';
import { tagName } from '../contacts/contact-rules';
import type { FilterJson, FilterRule } from './filter.schemas';
import { nowSeconds } from '../input/epoch';

type Clause = Record<string, unknown>;

const DAY_SECONDS = 86_400;
/** 9999-12-31T23:59:59.999Z in epoch ms. */
const MAX_EPOCH_MS = 253_402_300_799_999;
const MAX_LAST_DAYS = 3650;

export const TIME_CONDITIONS = ['ON', 'AFTER', 'BEFORE', 'BETWEEN', 'LAST'] as const;
export const TEXT_CONDITIONS = ['EQUALS', 'NOTEQUALS'] as const;
export const NUMBER_CONDITIONS = ['EQUALS', 'IS_GREATER_THAN', 'IS_LESS_THAN', 'BETWEEN'] as const;

/** A rule the request got wrong, named by its place in `filterJson`. */
class RuleError extends Error {
  constructor(
    readonly part: 'LHS' | 'CONDITION' | 'RHS' | 'RHS_NEW',
    message: string,
  ) {
    super(message);
  }
}

function oneOf<T extends string>(rule: FilterRule, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(rule.CONDITION)) throw new RuleError('CONDITION', `must be one of ${allowed.join(', ')} for ${rule.LHS}`);
  return rule.CONDITION as T;
}

function wholeNumber(value: unknown, part: 'RHS' | 'RHS_NEW', min: number, max: number, what: string): number {
  const n = typeof value === 'string' && /^-?\d{1,16}$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < min || n > max) throw new RuleError(part, `must be ${what} (a whole number from ${min} to ${max})`);
  return n;
}

const epochMs = (value: unknown, part: 'RHS' | 'RHS_NEW') => wholeNumber(value, part, 0, MAX_EPOCH_MS, 'epoch milliseconds');
const seconds = (ms: number) => Math.floor(ms / 1000);

/**
 * A time rule on a field stored in epoch seconds; RHS in epoch milliseconds as the original sends
 * it. ON: the UTC day holding RHS; AFTER / BEFORE: strictly after / before RHS; BETWEEN: from RHS
 * to RHS_NEW inclusive; LAST: the last RHS days up to now.
 */
function timeClause(field: string, rule: FilterRule, now: number): Clause {
  switch (oneOf(rule, TIME_CONDITIONS)) {
    case 'ON': {
      const start = Math.floor(seconds(epochMs(rule.RHS, 'RHS')) / DAY_SECONDS) * DAY_SECONDS;
      return { [field]: { $gte: start, $lt: start + DAY_SECONDS } };
    }
    case 'AFTER':
      return { [field]: { $gt: seconds(epochMs(rule.RHS, 'RHS')) } };
    case 'BEFORE':
      return { [field]: { $lt: Math.ceil(epochMs(rule.RHS, 'RHS') / 1000) } };
    case 'BETWEEN': {
      const [from, to] = [epochMs(rule.RHS, 'RHS'), epochMs(rule.RHS_NEW, 'RHS_NEW')];
      if (to < from) throw new RuleError('RHS_NEW', 'must not be before RHS');
      return { [field]: { $gte: Math.ceil(from / 1000), $lte: seconds(to) } };
    }
    case 'LAST':
      return { [field]: { $gte: now - wholeNumber(rule.RHS, 'RHS', 1, MAX_LAST_DAYS, 'a number of days') * DAY_SECONDS, $lte: now } };
  }
}

function numberClause(field: string, rule: FilterRule): Clause {
  const value = (part: 'RHS' | 'RHS_NEW') => wholeNumber(rule[part], part, 0, Number.MAX_SAFE_INTEGER, 'a number');
  switch (oneOf(rule, NUMBER_CONDITIONS)) {
    case 'EQUALS':
      return { [field]: value('RHS') };
    case 'IS_GREATER_THAN':
      return { [field]: { $gt: value('RHS') } };
    case 'IS_LESS_THAN':
      return { [field]: { $lt: value('RHS') } };
    case 'BETWEEN':
      return { [field]: { $gte: value('RHS'), $lte: value('RHS_NEW') } };
  }
}

function text(rule: FilterRule): string {
  if (typeof rule.RHS !== 'string') throw new RuleError('RHS', 'must be a string');
  return rule.RHS;
}

function tagClause(rule: FilterRule): Clause {
  const condition = oneOf(rule, TEXT_CONDITIONS);
  const tag = tagName.safeParse(rule.RHS);
  if (!tag.success) throw new RuleError('RHS', 'must be a tag: a letter first, then letters, digits, underscore and space');
  // the tag is a key of tag_times: tagName admits no `.` or `$`
  return { [`tag_times.${tag.data}`]: { $exists: condition === 'EQUALS' } };
}

/** A property of the contact (first_name, email, a custom field…) equal, or not, to RHS (case-sensitive). */
function propertyClause(rule: FilterRule): Clause {
  const match = { $elemMatch: { name: rule.LHS, value: text(rule) } };
  return oneOf(rule, TEXT_CONDITIONS) === 'EQUALS' ? { properties: match } : { properties: { $not: match } };
}

function contactClause(rule: FilterRule, now: number): Clause {
  switch (rule.LHS) {
    case 'tags':
      return tagClause(rule);
    case 'created_time':
    case 'updated_time':
      return timeClause(rule.LHS, rule, now);
    case 'lead_score':
    case 'star_value':
      return numberClause(rule.LHS, rule);
    default:
      return propertyClause(rule);
  }
}

const DEAL_FIELDS = ['created_time', 'updated_time', 'close_date', 'milestone', 'expected_value'];

/** A custom field of the deal (a searchable DEAL definition's label) equal, or not, to RHS (case-sensitive). */
function customDatumClause(rule: FilterRule): Clause {
  const match = { $elemMatch: { name: rule.LHS, value: text(rule) } };
  return oneOf(rule, TEXT_CONDITIONS) === 'EQUALS' ? { custom_data: match } : { custom_data: { $not: match } };
}

function dealClause(rule: FilterRule, now: number, customLabels: ReadonlySet<string>): Clause {
  switch (rule.LHS) {
    case 'created_time':
    case 'updated_time':
    case 'close_date':
      return timeClause(rule.LHS, rule, now);
    case 'expected_value':
      return numberClause(rule.LHS, rule);
    case 'milestone': {
      const value = text(rule);
      return { milestone: oneOf(rule, TEXT_CONDITIONS) === 'EQUALS' ? value : { $ne: value } };
    }
    default:
      if (customLabels.has(rule.LHS)) return customDatumClause(rule);
      throw new RuleError('LHS', `must be one of ${DEAL_FIELDS.join(', ')} or the label of a searchable DEAL custom field for deals`);
  }
}

/**
 * The database filter of a dynamic filter (without the account): every rule of `rules` and, when
 * `or_rules` has any, at least one of them. Every rule error is reported, each naming its place.
 */
export function filterQuery(filter: FilterJson, now = nowSeconds(), dealCustomLabels: ReadonlySet<string> = new Set()): Clause {
  const clauseOf = filter.contact_type === 'OPPORTUNITY' ? (rule: FilterRule, at: number) => dealClause(rule, at, dealCustomLabels) : contactClause;
  const issues: FieldIssue[] = [];
  const build = (list: FilterRule[], name: string) =>
    list.flatMap((rule, i) => {
      try {
        return [clauseOf(rule, now)];
      } catch (err) {
        if (!(err instanceof RuleError)) throw err;
        issues.push({ field: `filterJson.${name}.${i}.${err.part}`, message: err.message });
        return [];
      }
    });
  const all = build(filter.rules, 'rules');
  const any = build(filter.or_rules, 'or_rules');
  if (issues.length) throw validationFailed(issues);
  const clauses = [...all, ...(any.length ? [{ $or: any }] : [])];
  return {
    ...(filter.contact_type !== 'OPPORTUNITY' && { type: filter.contact_type }),
    ...(clauses.length && { $and: clauses }),
  };
}
