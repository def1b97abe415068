import { errorObjectWithStatusSchema } from '@lib/errors';

export const errorOutput = errorObjectWithStatusSchema.meta({ id: 'Error' });

const error = (description: string) => ({ description, schema: errorOutput });

/** Responses most CRM routes share. */
export const commonErrors = {
  400: error('Input in the wrong format; the message names the field'),
  401: error('Missing or wrong credentials (HTTP Basic: email and API key)'),
};
export const notFoundError = error('No record with that id in this account');
export const limitError = error('The account holds its contact limit');
export const notAcceptable = error('The Accept header names neither application/json nor application/xml');
export const tooManyFailures = error('Too many failed sign-ins of this email from this address, or from this address in all (Retry-After); the key was not checked');
export const authBusy = error(
  'Starting, the database does not answer, busy with large requests, or other sign-ins of this email or address still in flight after 5 s: try again after Retry-After',
);
export const noContent = { description: 'Empty: nothing matched, or done' };
