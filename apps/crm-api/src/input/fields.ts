import { z } from '@lib/validation';

/** A record id sent as a JSON number or as a string of digits (clients send longs as strings). */
export const idField = z
  .union([z.number().int().positive().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^[1-9]\d{0,15}$/).transform(Number)], 'must be a positive whole number')
  .meta({ override: { type: ['integer', 'string'] } });

/** A whole number sent as a JSON number or, in form calls, as text; `-` allowed when `min` < 0. */
export function intField(options: { min: number; max: number }) {
  const { min, max } = options;
  const message = `must be a whole number from ${min} to ${max}`;
  return z
    .union([z.number(), z.string().regex(/^-?\d{1,15}$/, message).transform(Number)], message)
    .pipe(z.number().int(message).min(min, message).max(max, message));
}
