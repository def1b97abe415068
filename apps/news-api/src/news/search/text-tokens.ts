/** A token longer than this is cut to it, in the index and in a query alike (bounds index keys). */
export const MAX_TOKEN_LENGTH = 64;

const MARKS = /\p{M}+/gu;
/** `Tinto's` is found by `tinto`: the possessive goes, as most search engines' analyzers drop it. */
// Apostrophes: ' \u2019 (right single quotation mark) \u02BC (modifier letter apostrophe), escaped so
// that the bundle stays ASCII (tools/build-config/esbuild.config.js).
const POSSESSIVE = /(?<=[\p{L}\p{N}])['\u2019\u02BC]s(?![\p{L}\p{N}])/gu;
/** `O'Brien` is one word, `obrien`. */
const INNER_APOSTROPHE = /(?<=[\p{L}\p{N}])['\u2019\u02BC](?=[\p{L}\p{N}])/gu;
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * Text as the index compares it: lower case, compatibility forms unfolded (`ﬁ` → `fi`, `²` → `2`)
 * and accents dropped (Unicode NFKD, then combining marks removed): `Café` and `CAFE` are equal.
 */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(MARKS, '').toLowerCase();
}

const cut = (token: string) => {
  if (token.length <= MAX_TOKEN_LENGTH) return token;
  const end = token.charCodeAt(MAX_TOKEN_LENGTH - 1);
  // never keep half of a surrogate pair
  return token.slice(0, end >= 0xd800 && end <= 0xdbff ? MAX_TOKEN_LENGTH - 1 : MAX_TOKEN_LENGTH);
};

/**
 * The words of a text, folded: runs of letters and digits; everything else separates them
 * (`lithium-ion` → `lithium`, `ion`; `A$2.5bn` → `a`, `2`, `5bn`). The same function reads articles
 * and queries, so both always agree.
 */
export function tokensOf(text: string): string[] {
  const folded = foldText(text).replace(POSSESSIVE, '').replace(INNER_APOSTROPHE, '');
  return Array.from(folded.matchAll(WORD), (match) => cut(match[0]));
}
