import type { FieldIssue } from './http-error';

/** At most this many issues are listed in an error body; the rest are counted ("and N more"). */
export const MAX_LISTED_ISSUES = 20;
/** Longest field name, issue message and error message an error body repeats (longer ones are cut). */
export const MAX_FIELD_CHARS = 100;
export const MAX_ISSUE_MESSAGE_CHARS = 200;
export const MAX_ERROR_MESSAGE_CHARS = 2_000;

/** `text` cut to `max` characters with an ellipsis, never splitting a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** The first MAX_LISTED_ISSUES issues, each with its field and message cut to their bounds. */
export function listedIssues(issues: FieldIssue[]): FieldIssue[] {
  return issues.slice(0, MAX_LISTED_ISSUES).map(({ field, message }) => ({ field: clip(field, MAX_FIELD_CHARS), message: clip(message, MAX_ISSUE_MESSAGE_CHARS) }));
}

/** "a: is required; b: …" for the listed issues, then "; and N more" when some were left out. */
export function issuesSummary(issues: FieldIssue[]): string {
  const listed = listedIssues(issues)
    .map((d) => `${d.field}: ${d.message}`)
    .join('; ');
  const more = issues.length - MAX_LISTED_ISSUES;
  return more > 0 ? `${listed}; and ${more} more` : listed;
}
