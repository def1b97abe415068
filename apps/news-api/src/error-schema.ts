import { z } from '@lib/validation';

/** OpenAPI description of the one error body (see error-body.ts). */
export const errorBody = z.object({
  error: z.object({
    code: z.string().meta({ description: 'Machine-readable, e.g. validation_failed, unauthorized, email_taken' }),
    message: z.string(),
    fields: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
    error_id: z.string().optional().meta({ description: 'On 5xx: the id of the server log entry' }),
  }),
}).meta({ id: 'Error' });
