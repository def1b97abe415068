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
 * An array field of a form (application/x-www-form-urlencoded) call, sent as JSON-array text
 * (`tags=["a","b"]`). JSON bodies may send a real array; both reach the item schema the same way.
 */
export function formArray<T extends z.ZodType>(item: T) {
  return z.preprocess((value) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value);
    } catch {
      return value; // fails the array check below with a clear message
    }
  }, z.array(item, 'must be a JSON array'));
}
