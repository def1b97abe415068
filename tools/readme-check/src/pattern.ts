/**
 * JSON as a README shows it, with `…` for what varies:
 * - `…` as a value matches any value;
 * - `…` inside a string matches any text there (`"eyJhbGciOi…"`, `"…"`);
 * - `…` as an array item matches any number of items at that place (`[…]`, `[{"id":1},…]`);
 * - `…` as an object member allows members not shown (`{"id":7,…}`); without it the object must
 *   have exactly the members shown.
 */
export type Pattern =
  | { kind: 'any' }
  | { kind: 'literal'; value: null | boolean | number }
  | { kind: 'string'; exact?: string; regex?: RegExp; text: string }
  | { kind: 'array'; before: Pattern[]; after: Pattern[]; open: boolean }
  | { kind: 'object'; members: [string, Pattern][]; open: boolean };

const ELLIPSIS = '…';

export function parsePattern(source: string): Pattern {
  let at = 0;
  const fail = (what: string): never => {
    throw new Error(`bad JSON pattern at character ${at + 1} (${what}): ${source}`);
  };
  const space = () => {
    while (/\s/.test(source[at] ?? '')) at++;
  };
  const expect = (char: string) => {
    space();
    if (source[at] !== char) fail(`expected ${char}`);
    at++;
  };
  const isEllipsis = () => {
    space();
    return source.startsWith(ELLIPSIS, at);
  };

  function stringToken(): string {
    const start = at;
    if (source[at] !== '"') fail('expected a string');
    at++;
    while (at < source.length && source[at] !== '"') at += source[at] === '\\' ? 2 : 1;
    if (at >= source.length) fail('string never closed');
    at++;
    return JSON.parse(source.slice(start, at)) as string;
  }

  function value(): Pattern {
    space();
    if (isEllipsis()) {
      at += ELLIPSIS.length;
      return { kind: 'any' };
    }
    const char = source[at];
    if (char === '{') return object();
    if (char === '[') return array();
    if (char === '"') {
      const text = stringToken();
      if (!text.includes(ELLIPSIS)) return { kind: 'string', exact: text, text };
      const escaped = text.split(ELLIPSIS).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      return { kind: 'string', regex: new RegExp(`^${escaped.join('[\\s\\S]*')}$`), text };
    }
    const literal = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(source.slice(at));
    if (!literal) return fail('expected a value');
    at += literal[0].length;
    return { kind: 'literal', value: JSON.parse(literal[0]) as null | boolean | number };
  }

  function array(): Pattern {
    expect('[');
    const pattern = { kind: 'array' as const, before: [] as Pattern[], after: [] as Pattern[], open: false };
    space();
    if (source[at] === ']') {
      at++;
      return pattern;
    }
    for (;;) {
      if (isEllipsis() && /^\s*[,\]]/.test(source.slice(at + ELLIPSIS.length))) {
        if (pattern.open) fail('one … per array');
        at += ELLIPSIS.length;
        pattern.open = true;
      } else {
        (pattern.open ? pattern.after : pattern.before).push(value());
      }
      space();
      if (source[at] === ']') {
        at++;
        return pattern;
      }
      expect(',');
    }
  }

  function object(): Pattern {
    expect('{');
    const pattern = { kind: 'object' as const, members: [] as [string, Pattern][], open: false };
    space();
    if (source[at] === '}') {
      at++;
      return pattern;
    }
    for (;;) {
      if (isEllipsis()) {
        at += ELLIPSIS.length;
        pattern.open = true;
      } else {
        space();
        const key = stringToken();
        expect(':');
        pattern.members.push([key, value()]);
      }
      space();
      if (source[at] === '}') {
        at++;
        return pattern;
      }
      expect(',');
    }
  }

  const result = value();
  space();
  if (at !== source.length) fail('text after the value');
  return result;
}

const show = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
};

/** The first difference between `actual` and `pattern`, as `path: what`; undefined when it matches. */
export function mismatch(pattern: Pattern, actual: unknown, path = '$'): string | undefined {
  switch (pattern.kind) {
    case 'any':
      return undefined;
    case 'literal':
      return actual === pattern.value ? undefined : `${path}: expected ${show(pattern.value)}, got ${show(actual)}`;
    case 'string':
      if (typeof actual !== 'string') return `${path}: expected a string "${pattern.text}", got ${show(actual)}`;
      if (pattern.exact !== undefined ? actual === pattern.exact : pattern.regex?.test(actual)) return undefined;
      return `${path}: expected "${pattern.text}", got ${show(actual)}`;
    case 'array': {
      if (!Array.isArray(actual)) return `${path}: expected an array, got ${show(actual)}`;
      const fixed = pattern.before.length + pattern.after.length;
      if (pattern.open ? actual.length < fixed : actual.length !== fixed) {
        return `${path}: expected ${pattern.open ? 'at least ' : ''}${fixed} items, got ${actual.length}: ${show(actual)}`;
      }
      const offset = actual.length - pattern.after.length;
      for (const [index, item] of pattern.before.entries()) {
        const found = mismatch(item, actual[index], `${path}[${index}]`);
        if (found) return found;
      }
      for (const [index, item] of pattern.after.entries()) {
        const found = mismatch(item, actual[offset + index], `${path}[${offset + index}]`);
        if (found) return found;
      }
      return undefined;
    }
    case 'object': {
      if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return `${path}: expected an object, got ${show(actual)}`;
      const record = actual as Record<string, unknown>;
      for (const [key, item] of pattern.members) {
        if (!(key in record)) return `${path}: no member "${key}" in ${show(actual)}`;
        const found = mismatch(item, record[key], `${path}.${key}`);
        if (found) return found;
      }
      if (!pattern.open) {
        const extra = Object.keys(record).filter((key) => !pattern.members.some(([name]) => name === key));
        if (extra.length) return `${path}: members not shown in the README: ${extra.join(', ')} (add them, or "…" for more)`;
      }
      return undefined;
    }
  }
}
