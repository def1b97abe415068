import { responseOf } from '@lib/routing';
import { asNumber, queryInt, text, z } from '@lib/validation';
import { errorObjectSchema } from '@lib/errors';

export const NAME_MAX = 100;
export const CITY_MAX = 100;
export const AGE_MAX = 150;
export const DEFAULT_PAGE = 100;
export const MAX_PAGE = 1000;

/** A decimal number written plainly: `30`, `30.5`; no sign, exponent, hex or spaces. */
const age = z
  .string()
  .regex(/^\d{1,3}(\.\d{1,6})?$/, `must be a decimal number from 0 to ${AGE_MAX}, such as 30 or 30.5`)
  .transform(Number)
  .pipe(z.number().max(AGE_MAX, `must be at most ${AGE_MAX}`))
  .meta({ description: 'Decimal number', override: asNumber('number', { minimum: 0, maximum: AGE_MAX }), example: 30.5 });

export const createQuery = z.strictObject({
  name: text({ max: NAME_MAX, description: 'User name' }),
  age,
  city: text({ max: CITY_MAX, description: 'City' }),
});

export const listQuery = z.strictObject({
  limit: queryInt({ min: 1, max: MAX_PAGE, description: `Page size (default ${DEFAULT_PAGE}, at most ${MAX_PAGE})` }).default(DEFAULT_PAGE),
  cursor: z.string().max(1024).optional().meta({ description: 'next_cursor of the previous page' }),
});

export const userOutput = z.strictObject({ name: z.string(), age: z.number(), city: z.string() }).meta({ id: 'User' });

export const listBody = z.strictObject({
  data: z.array(userOutput),
  has_more: z.boolean().meta({ description: 'True when more users follow; fetch them with next_cursor' }),
  next_cursor: z.string().optional(),
});

export const createdBody = z.strictObject({ data: z.array(userOutput).length(1) });


/** The error body (errorObjectBody), as the OpenAPI component `Error`. */
export const errorBody = errorObjectSchema.meta({ id: 'Error' });

/** A response of the error body, under its own description. */
export const errorResponse = responseOf(errorBody);
