import { errorObjectWithStatusSchema as errorOutput } from '@lib/errors';

const error = (description: string) => ({ description, schema: errorOutput });

/** Responses most CRM routes share. */
export const commonErrors = {
  400: error('Input in the wrong format; the message names the field'),
  401: error('Missing or wrong credentials (HTTP Basic: email and API key)'),
};
export const notFoundError = error('No record with that id in this account');
export const limitError = error('The account holds its contact limit');
export const noContent = { description: 'Empty: nothing matched, or done' };
