import { errorObjectSchema } from '@lib/errors';

/** OpenAPI description of the one error body (errorObjectBody), as the component `Error`. */
export const errorBody = errorObjectSchema.meta({ id: 'Error' });
