import { responseOf } from '@lib/routing';
import { errorObjectSchema } from '@lib/errors';

/** OpenAPI description of the one error body (errorObjectBody), as the component `Error`. */
export const errorBody = errorObjectSchema.meta({ id: 'Error' });

/** A response of the error body, under its own description. */
export const errorResponse = responseOf(errorBody);
