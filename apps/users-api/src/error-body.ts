import type { ErrorBodyFormat } from '@lib/errors';

/** The users service's error body: `{ error: { code, message, fields?, error_id? } }`. */
export const usersErrorBody: ErrorBodyFormat = ({ code, message, details, errorId }) => ({
  error: {
    code,
    message,
    ...(details && { fields: details }),
    ...(errorId && { error_id: errorId }),
  },
});
