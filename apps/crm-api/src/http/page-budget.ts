/**
 * The byte budget of one page and what it allows per list (docs/RESILIENCE.md, "Bounds";
 * apps/crm-api/README.md, "Limits"). Each item's worst case follows from the stored bounds
 * (contact-rules.ts, the resource schemas, MAX_RELATED_CONTACTS) and is measured, JSON and XML,
 * on items built at those bounds in test/page-budget.spec.ts; each list's page_size maximum is the
 * largest round number whose worst page fits the budget.
 */
export const PAGE_BUDGET_BYTES = 8 * 1024 * 1024;

/** Worst-case bytes of one item of each list as sent (JSON or XML, whichever is larger). */
export const WORST_ITEM_BYTES = {
  /** text at its bounds in the costliest characters (3 UTF-8 bytes; `&` is 5 in XML), tags, owner */
  contact: 64 * 1024,
  /** subject and description, up to 10 related contact ids and 100 deal ids */
  note: 64 * 1024,
  /** subject, owner, 100 note ids and up to 10 related contacts in full */
  task: 10 * 64 * 1024 + 64 * 1024,
  /** title and up to 10 related contacts in full */
  event: 10 * 64 * 1024 + 16 * 1024,
  /** name, description, custom data, owner, note ids and up to 10 related contacts in full */
  deal: 10 * 64 * 1024 + 128 * 1024,
} as const;

/** page_size maxima: PAGE_MAX[list] × WORST_ITEM_BYTES[list] ≤ PAGE_BUDGET_BYTES. */
export const PAGE_MAX = {
  contacts: 100,
  notes: 100,
  tasks: 10,
  events: 10,
  deals: 10,
} as const;
