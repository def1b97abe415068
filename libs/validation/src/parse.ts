import { validationFailed } from '@lib/errors';
import type { z } from 'zod';
import { fieldIssues } from './field-issues';

/** Parses `value` with `schema`, throwing a 400 that names every bad field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, location: 'body' | 'query' | 'params'): z.output<S> {
  const result = schema.safeParse(value, { reportInput: true });
  if (!result.success) throw validationFailed(fieldIssues(result.error, location));
  return result.data;
}
