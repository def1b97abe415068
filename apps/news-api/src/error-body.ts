import type { ErrorBodyFormat } from '@lib/errors';

/** The news service's one error body: `{ error: { code, message, fields?, error_id? } }`. */
export const newsErrorBody: ErrorBodyFormat = ({ code, message, details, errorId }) => ({
  error: {
    code,
    message,
    ...(details && { fields: details }),
    ...(errorId && { error_id: errorId }),
  },
});
