/**
 * The largest body of each route (apps/crm-api/README.md, "Limits"): its largest valid body with
 * every character escaped (`\uXXXX`, 6 bytes, in JSON: Python's json.dumps writes non-ASCII so;
 * `%XX` in a form), rounded up. The app's limit is the largest, `records`; every route taking a
 * body names its own.
 */
export const BODY_LIMITS = {
  /**
   * A whole deal, task or event (create, update, partial update): a fetched one sent back carries
   * its related contacts in full — 10 contacts of 64 Ki characters each (~0.46 MB escaped) and the
   * deal's own 128 Ki characters of description and custom data (~0.8 MB).
   */
  records: '6mb',
  /**
   * A whole contact (C3/C4: 64 Ki characters of properties, ~0.46 MB escaped); a note (66.5 Ki
   * characters; N2's form-encoded JSON text at 9 bytes a character, ~0.6 MB); the bulk update and
   * the dynamic filter (ids and 10,000 characters of filterJson); a workflow (50 steps of ≤ 1,000
   * characters, ~0.3 MB escaped).
   */
  record: '1mb',
  /** edit-properties, add/property: 64 Ki characters of property text and 50 properties (~0.4 MB escaped) */
  properties: '512kb',
  /** a few ids, numbers or an email; a track's 50 milestones of ≤ 100 characters (5,000); 100 tags of ≤ 50 */
  fields: '64kb',
  /** D7 and notes/bulk: 1,000 ids as digit strings */
  ids: '64kb',
  /** search/email: 100 emails of ≤ 254 characters, as form-encoded JSON-array text */
  emails: '256kb',
} as const;
