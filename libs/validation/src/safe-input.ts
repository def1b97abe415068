import { badRequest, clip, validationFailed } from '@lib/errors';

const MAX_DEPTH = 20;
/** No schema takes a longer array or an object with more keys: longer ones are refused before validation. */
export const MAX_INPUT_ITEMS = 1_000;
/** Values (strings, numbers, objects, …) in one body or query; bounds the work validation can be given. */
export const MAX_INPUT_VALUES = 20_000;

/**
 * Characters no stored string may hold: NUL and the other C0 controls but tab, line feed and carriage
 * return (BSON keys and regular expressions cannot hold NUL, XML 1.0 none of them), U+FFFE/U+FFFF
 * (not XML characters), and lone UTF-16 surrogates (no UTF-8 encoding: BSON would store U+FFFD).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSTORABLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isStorableText = (text: string) => !UNSTORABLE.test(text);

const UNSTORABLE_MESSAGE = 'must not contain NUL, control characters (other than tab and line breaks) or unpaired surrogates';

interface Walk {
  location: string;
  values: number;
}

const fieldOf = (path: string[], location: string) => (path.length ? path.join('.') : location);
const placeOf = (path: string[], location: string) => (path.length ? clip(path.join('.'), 100) : location);

function visit(value: unknown, path: string[], walk: Walk): void {
  if (path.length > MAX_DEPTH) throw badRequest(`${placeOf(path.slice(0, 3), walk.location)}: nested too deeply`);
  if (++walk.values > MAX_INPUT_VALUES) {
    throw badRequest(`${walk.location}: holds more than ${MAX_INPUT_VALUES} values`, [{ field: walk.location, message: `holds more than ${MAX_INPUT_VALUES} values` }]);
  }
  if (typeof value === 'string') {
    if (!isStorableText(value)) throw validationFailed([{ field: clip(fieldOf(path, walk.location), 100), message: UNSTORABLE_MESSAGE }]);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const entries = Array.isArray(value) ? value.map((item, i) => [String(i), item] as const) : Object.entries(value);
  if (entries.length > MAX_INPUT_ITEMS) {
    const field = clip(fieldOf(path, walk.location), 100);
    const what = Array.isArray(value) ? 'items' : 'fields';
    throw validationFailed([{ field, message: `has more than ${MAX_INPUT_ITEMS} ${what}` }]);
  }
  for (const [key, item] of entries) {
    if (!Array.isArray(value)) {
      if (key.startsWith('$') || key.includes('.') || key === '__proto__') {
        const shown = clip(key, 100);
        throw badRequest(`${placeOf(path, walk.location)}: field name "${shown}" is not allowed (no "$" prefix or "." inside names)`, [
          { field: shown, message: 'is not an allowed field name' },
        ]);
      }
      if (!isStorableText(key)) throw validationFailed([{ field: clip(fieldOf([...path, key.replace(UNSTORABLE, '?')], walk.location), 100), message: `name ${UNSTORABLE_MESSAGE}` }]);
    }
    visit(item, [...path, key], walk);
  }
}

/**
 * Rejects input that could be read as a MongoDB operator or path (`$where`, `a.b`), input nested
 * deeper than any of our schemas allow, longer arrays and objects than any schema takes, and text
 * the database or an XML answer cannot hold (NUL, other controls, unpaired surrogates), naming the
 * field. Runs on every path, query and body before the schema does.
 */
export function assertSafeInput(value: unknown, location: string): void {
  visit(value, [], { location, values: 0 });
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;

const tooManyValues = (location: string) =>
  badRequest(`${location}: holds more than ${MAX_INPUT_VALUES} values`, [{ field: location, message: `holds more than ${MAX_INPUT_VALUES} values` }]);

/** Where the string opened by the quote at `at` ends (its closing quote), or -1 when it does not. */
function stringEnd(text: Buffer, at: number): number {
  let end = text.indexOf(QUOTE, at + 1);
  while (end !== -1) {
    let backslashes = 0;
    while (text[end - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf(QUOTE, end + 1);
  }
  return -1;
}

/**
 * Refuses JSON text that parses to more than MAX_INPUT_VALUES values before it is parsed: a body of
 * small values (`[0,0,…]`) takes about five times its size to parse (26 MB for 5 MB), so a large
 * body limit must not let one be parsed. Counts what the parse must make — commas and opening
 * brackets outside strings (a value more per comma, one per array or object) — so it refuses only
 * what assertSafeInput would refuse once parsed. Malformed text is left to the parser.
 */
export function assertJsonWithinBounds(text: Buffer, location = 'body'): void {
  let commas = 0;
  let containers = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end === -1) return;
      i = end;
    } else if (c === COMMA) {
      if (++commas >= MAX_INPUT_VALUES) throw tooManyValues(location);
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++containers > MAX_INPUT_VALUES) throw tooManyValues(location);
    }
  }
}
