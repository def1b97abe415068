import type { FieldIssue } from '@lib/errors';
import type { z } from 'zod';

type Location = 'body' | 'query' | 'params';

/** Friendlier messages than zod's defaults for the cases clients hit most. */
function messageOf(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) return 'is required';
  // A missing enum, literal or union field (needs `reportInput`, see parseOrThrow)
  const missing = 'input' in issue && issue.input === undefined;
  if (missing && (issue.code === 'invalid_value' || issue.code === 'invalid_union')) return 'is required';
  return issue.message;
}

/** Flattens a zod error into one issue per field, each naming the field as the client sent it. */
export function fieldIssues(error: z.ZodError, location: Location): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const issue of error.issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const field = base ? `${base}.${key}` : key;
        issues.push({ field, message: location === 'body' ? 'is not an accepted field' : 'is not an accepted parameter' });
      }
      continue;
    }
    issues.push({ field: base || location, message: messageOf(issue) });
  }
  return issues;
}
