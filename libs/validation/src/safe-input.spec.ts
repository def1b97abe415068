import { HttpError } from '@lib/errors';
import { assertJsonWithinBounds, assertSafeInput, MAX_INPUT_VALUES } from './safe-input';

function rejection(value: unknown, location = 'body'): HttpError {
  try {
    assertSafeInput(value, location);
  } catch (err) {
    if (err instanceof HttpError) return err;
    throw err;
  }
  throw new Error('expected the input to be rejected');
}

function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

describe('assertSafeInput', () => {
  it('accepts ordinary data', () => {
    const body = {
      name: 'Ada Lovelace',
      type: 'PERSON',
      emails: ['ada@example.com'],
      address: { street: '1 Main St', city: 'London', geo: { lat: 51.5, lng: -0.1 } },
      notes: 'costs $5.00 — dots and $ inside values are fine',
      empty: null,
      flags: [true, false],
      list: [{ id: 1 }, { id: 2 }],
    };
    expect(() => assertSafeInput(body, 'body')).not.toThrow();
    expect(() => assertSafeInput({ page: '2', sort: 'name' }, 'query')).not.toThrow();
    for (const primitive of [undefined, null, 1, 'x', true]) expect(() => assertSafeInput(primitive, 'body')).not.toThrow();
    expect(() => assertSafeInput(nested(10), 'body')).not.toThrow();
  });

  it('rejects a top-level operator key', () => {
    const err = rejection({ $where: 'sleep(1000)' });
    expect(err.status).toBe(400);
    expect(err.code).toBe('bad_request');
    expect(err.message).toContain('"$where"');
    expect(err.details).toEqual([{ field: '$where', message: 'is not an allowed field name' }]);
  });

  it('rejects operator keys at any depth, inside objects and arrays', () => {
    expect(rejection({ name: { $ne: null } }).message).toContain('"$ne"');
    expect(rejection({ a: { b: { c: { $gt: 1 } } } }).message).toContain('"$gt"');
    expect(rejection({ list: [{ ok: 1 }, { $set: { admin: true } }] }).message).toContain('"$set"');
    expect(rejection([[{ $or: [] }]]).message).toContain('"$or"');
  });

  it('names where the bad key was found', () => {
    expect(rejection({ address: { geo: { $near: 1 } } }).message).toMatch(/^address\.geo: /);
    expect(rejection({ list: [{}, { $x: 1 }] }).message).toMatch(/^list\.1: /);
    expect(rejection({ $x: 1 }, 'query').message).toMatch(/^query: /);
  });

  it('rejects keys containing a dot (mongo paths) at any depth', () => {
    expect(rejection({ 'a.b': 1 }).message).toContain('"a.b"');
    expect(rejection({ outer: { 'profile.role': 'admin' } }).message).toContain('"profile.role"');
    expect(rejection({ 'user.name': 'x' }, 'query').status).toBe(400);
  });

  it('rejects __proto__ keys at any depth', () => {
    // JSON.parse makes __proto__ an own key, as body-parser does
    expect(rejection(JSON.parse('{"__proto__": {"admin": true}}')).message).toContain('"__proto__"');
    expect(rejection(JSON.parse('{"a": [{"b": {"__proto__": {}}}]}')).message).toContain('"__proto__"');
  });

  it('rejects input nested too deeply, objects or arrays', () => {
    const err = rejection(nested(100));
    expect(err.status).toBe(400);
    expect(err.message).toContain('nested too deeply');
    let array: unknown = 1;
    for (let i = 0; i < 100; i++) array = [array];
    expect(rejection(array).message).toContain('nested too deeply');
  });
});

describe('assertSafeInput: text the database cannot take, and size', () => {
  it.each([
    ['NUL', 'a\u0000b'],
    ['a C0 control', 'bell\u0007'],
    ['an unpaired high surrogate', 'x\uD83D'],
    ['an unpaired low surrogate', '\uDE00x'],
    ['U+FFFF', 'a\uFFFF'],
  ])('refuses %s in a value with a 400 naming the field', (_what, text) => {
    const err = rejection({ contact: { tags: ['ok', text] } });
    expect(err.status).toBe(400);
    expect(err.code).toBe('validation_failed');
    expect(err.details).toEqual([{ field: 'contact.tags.1', message: expect.stringContaining('must not contain NUL') }]);
    expect(rejection({ q: text }, 'query').details?.[0].field).toBe('q');
    expect(rejection({ id: text }, 'params').details?.[0].field).toBe('id');
  });

  it('refuses NUL in a field name', () => {
    const err = rejection({ 'na\u0000me': 1 });
    expect(err.details).toEqual([{ field: 'na?me', message: expect.stringContaining('name must not contain NUL') }]);
  });

  it('accepts tabs, line breaks, emoji and other scripts', () => {
    expect(() => assertSafeInput({ text: 'line\r\nnext\ttab 😀 日本語 ß' }, 'body')).not.toThrow();
  });

  it('refuses arrays and objects larger than any schema takes, and too many values, naming the field', () => {
    const long = rejection({ ids: new Array(150_000).fill(0) });
    expect(long.details).toEqual([{ field: 'ids', message: 'has more than 1000 items' }]);
    const wide = rejection(Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, 1])));
    expect(wide.details).toEqual([{ field: 'body', message: 'has more than 1000 fields' }]);
    const many = rejection({ a: Array.from({ length: 900 }, () => Array.from({ length: 30 }, () => 1)) });
    expect(many.message).toBe('body: holds more than 20000 values');
    expect(() => assertSafeInput({ ids: new Array(1_000).fill(1) }, 'body')).not.toThrow();
  });
});

describe('assertJsonWithinBounds: JSON text that parses to too many values, refused before parsing', () => {
  const refusal = (text: string) => {
    try {
      assertJsonWithinBounds(Buffer.from(text));
    } catch (err) {
      return err as { status: number; message: string; details: unknown };
    }
    return undefined;
  };
  const zeros = (n: number) => `{"ids":[${new Array(n).fill(0).join(',')}]}`;
  /** `lists` arrays of `each` zeros under keys a0, a1, …: 1 + lists × (1 + each) values. */
  const lists = (count: number, each: number) => JSON.stringify(Object.fromEntries(Array.from({ length: count }, (_, i) => [`a${i}`, new Array(each).fill(0)])));

  it('refuses, with its own error for too many values, only what assertSafeInput refuses once parsed', () => {
    for (const text of [zeros(MAX_INPUT_VALUES + 1), zeros(500_000), `${'['.repeat(MAX_INPUT_VALUES + 1)}${']'.repeat(MAX_INPUT_VALUES + 1)}`]) {
      const err = refusal(text);
      expect(err).toMatchObject({ status: 400, message: `body: holds more than ${MAX_INPUT_VALUES} values`, details: [{ field: 'body', message: `holds more than ${MAX_INPUT_VALUES} values` }] });
      expect(() => assertSafeInput(JSON.parse(text), 'body')).toThrow(HttpError);
    }
  });

  it('accepts what parses to at most the limit, and counts nothing inside strings (escaped quotes included)', () => {
    const atLimit = lists(20, 998); // 1 + 20 × 999 = 19,981 values
    expect(refusal(atLimit)).toBeUndefined();
    expect(() => assertSafeInput(JSON.parse(atLimit), 'body')).not.toThrow();
    const text = JSON.stringify({ note: `a "quoted\\" ${',[{'.repeat(100_000)}`, tail: 'x\\' });
    expect(refusal(text)).toBeUndefined();
  });

  it('leaves malformed text to the parser', () => {
    expect(refusal('{"a": "unterminated ,,,,')).toBeUndefined();
    expect(refusal('')).toBeUndefined();
  });
});
