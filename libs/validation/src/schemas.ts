import { z } from 'zod';

/** Documents a digits-only query/path string as the number it stands for. */
export function asNumber(type: 'integer' | 'number', bounds: { minimum?: number; maximum?: number }) {
  return ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
    delete jsonSchema.pattern;
    Object.assign(jsonSchema, { type }, bounds);
  };
}

/**
 * A query-string integer: digits only (no sign, exponent, spaces or empty string), within bounds.
 * Query values arrive as strings; `z.coerce` would accept '', ' 1' and '1e3', which we refuse.
 */
export function queryInt(options: { min: number; max: number; description?: string }) {
  const { min, max, description } = options;
  return z
    .string()
    .regex(/^\d{1,15}$/, `must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .meta({ description, override: asNumber('integer', { minimum: min, maximum: max }) });
}

/** A positive integer id in a path segment (1 … 2^53-1). */
export const pathId = z
  .string()
  .regex(/^[1-9]\d{0,15}$/, 'must be a positive whole number')
  .transform(Number)
  .pipe(z.number().max(Number.MAX_SAFE_INTEGER, 'is too large'))
  .meta({ override: asNumber('integer', { minimum: 1 }) });

/** A string that must hold something other than whitespace, up to `max` characters. */
export function text(options: { max: number; description?: string }) {
  return z
    .string()
    .refine((s) => s.trim().length > 0, 'must not be empty')
    .refine((s) => s.length <= options.max, `must be at most ${options.max} characters`)
    .meta({ description: options.description, maxLength: options.max, minLength: 1 });
}

/**
 * `[a, b]` as Java's `List.toString()` and the Python README's `"[%s]"` write a list: unquoted items
 * separated by `, ` (or `,`). Read only when unambiguous — every item non-empty, without quotes,
 * brackets or backslashes, and without surrounding whitespace; anything else is undefined.
 */
export function bracketList(text: string): string[] | undefined {
  const match = /^\[([^]*)\]$/.exec(text);
  if (!match || match[1] === '') return undefined;
  const items = match[1].split(/, ?/);
  return items.every((item) => item !== '' && item.trim() === item && !/["[\]\\]/.test(item)) ? items : undefined;
}

/**
 * An array field of a form (application/x-www-form-urlencoded) call, sent as JSON-array text
 * (`tags=["a","b"]`) or as an unambiguous bracketed list (`tags=[a, b]`, see `bracketList`).
 * JSON bodies may send a real array; every form reaches the item schema the same way.
 */
export function formArray<T extends z.ZodType>(item: T) {
  return z.preprocess((value) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value);
    } catch {
      return bracketList(value) ?? value; // a plain string fails the array check below with a clear message
    }
  }, z.array(item, 'must be a JSON array (or [a, b] with unquoted items)'));
}

/**
 * An enum in a query string: the value exactly (case-sensitive), also inside one pair of quotes
 * (`type='PERSON'`, as the official clients' READMEs write it). Nothing else is loosened.
 */
export function queryEnum<const V extends readonly [string, ...string[]]>(values: V) {
  return z.preprocess((value) => (typeof value === 'string' && /^(['"]).*\1$/s.test(value) && value.length >= 2 ? value.slice(1, -1) : value), z.enum(values));
}
