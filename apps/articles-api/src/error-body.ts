import type { ErrorBodyFormat } from '@lib/errors';

/** The articles service's error envelope: `status: false`, a message, and a machine-readable code. */
export const articlesErrorBody: ErrorBodyFormat = ({ code, message, details, errorId }) => ({
  status: false,
  code,
  message,
  ...(details && { errors: details }),
  ...(errorId && { error_id: errorId }),
});
