/**
 * Body limits of the routes whose largest valid body is far below the app's 1 MB (which the
 * routes taking whole records need: a fetched deal or task sent back carries its related contacts
 * in full). Each is the largest valid body, with every character escaped (`\\uXXXX` in JSON,
 * `%XX` in a form), rounded up.
 */
export const SMALL_BODY = {
  /** a few ids, numbers or an email; a track's 50 milestones of ≤ 100 characters (5,000); 100 tags of ≤ 50 */
  fields: '64kb',
  /** edit-properties, add/property: 4,000 characters of property text on a contact, 50 properties */
  properties: '64kb',
  /** D7: 1,000 ids as digit strings */
  ids: '64kb',
  /** search/email: 100 emails of ≤ 254 characters, as form-encoded JSON-array text */
  emails: '256kb',
  /** N2: a note's 11,000 characters as form-encoded JSON-object text */
  note: '256kb',
} as const;
