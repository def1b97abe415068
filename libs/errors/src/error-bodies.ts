import { z } from 'zod';
import type { ErrorBodyFormat } from './error-middleware';

/**
 * The error body styles the services document, each as the function that builds it and the schema
 * that describes it (for OpenAPI). A service picks one; none writes its own.
 */

const fieldIssues = z.array(z.object({ field: z.string(), message: z.string() }));
const errorCode = z.string().meta({ description: 'Machine-readable, e.g. validation_failed, unauthorized, not_found' });
const errorId = z.string().optional().meta({ description: 'On 5xx: the id of the server log entry' });

/** `{ error: { code, message, fields?, error_id? } }` (news, users). */
export const errorObjectBody: ErrorBodyFormat = ({ code, message, details, errorId }) => ({
  error: {
    code,
    message,
    ...(details && { fields: details }),
    ...(errorId && { error_id: errorId }),
  },
});

export const errorObjectSchema = z.object({
  error: z.object({ code: errorCode, message: z.string(), fields: fieldIssues.optional(), error_id: errorId }),
});

/** `{ error: { status, code, message, fields?, error_id? } }`: the same with the HTTP status inside (crm). */
export const errorObjectWithStatusBody: ErrorBodyFormat = (description) => ({
  error: { status: description.status, ...(errorObjectBody(description) as z.infer<typeof errorObjectSchema>).error },
});

export const errorObjectWithStatusSchema = z.object({
  error: z.object({ status: z.number().int(), code: errorCode, message: z.string(), fields: fieldIssues.optional(), error_id: errorId }),
});

/** `{ status: false, code, message, errors?, error_id? }`: a flat envelope beside `{ status: true, data }` (articles). */
export const flatErrorBody: ErrorBodyFormat = ({ code, message, details, errorId }) => ({
  status: false,
  code,
  message,
  ...(details && { errors: details }),
  ...(errorId && { error_id: errorId }),
});

export const flatErrorSchema = z.object({
  status: z.literal(false),
  code: errorCode,
  message: z.string(),
  errors: fieldIssues.optional(),
  error_id: errorId,
});
