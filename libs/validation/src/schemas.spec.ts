import { z } from 'zod';
import { bracketList, formArray, pathId, queryEnum, queryInt, text } from './schemas';

function errorOf(schema: z.ZodType, value: unknown): string {
  const result = schema.safeParse(value);
  if (result.success) throw new Error(`expected ${JSON.stringify(value)} to be rejected`);
  return result.error.issues.map((i) => i.message).join('; ');
}

describe('queryInt', () => {
  const pageSize = queryInt({ min: 1, max: 100 });

  it('turns digit strings into numbers', () => {
    expect(pageSize.parse('1')).toBe(1);
    expect(pageSize.parse('25')).toBe(25);
    expect(pageSize.parse('100')).toBe(100);
  });

  it.each(['', ' 1', '1 ', '1e3', '-1', '+1', '1.5', '0x10', 'abc', 'NaN', 'Infinity'])('rejects %j', (value) => {
    expect(errorOf(pageSize, value)).toBe('must be a whole number from 1 to 100');
  });

  it('rejects values outside the bounds', () => {
    expect(errorOf(pageSize, '101')).toBe('must be at most 100');
    expect(errorOf(pageSize, '0')).toBe('must be at least 1');
    expect(errorOf(pageSize, '9999999999999999')).toMatch(/whole number|at most/);
  });

  it('rejects repeated parameters (arrays) and non-strings', () => {
    expect(pageSize.safeParse(['1', '2']).success).toBe(false);
    expect(pageSize.safeParse(5).success).toBe(false);
    expect(pageSize.safeParse(undefined).success).toBe(false);
  });

  it('can be optional with a default', () => {
    const schema = z.strictObject({ page_size: pageSize.optional().default(20) });
    expect(schema.parse({})).toEqual({ page_size: 20 });
    expect(schema.parse({ page_size: '7' })).toEqual({ page_size: 7 });
  });
});

describe('pathId', () => {
  it('turns a positive whole number into a number', () => {
    expect(pathId.parse('1')).toBe(1);
    expect(pathId.parse('42')).toBe(42);
    expect(pathId.parse(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
  });

  it.each(['0', '01', '007', 'abc', '', '-1', '1.0', '1e3', ' 1', '12abc'])('rejects %j', (value) => {
    expect(errorOf(pathId, value)).toBe('must be a positive whole number');
  });

  it('rejects numbers too large to be exact', () => {
    // zod's own safe-integer check of .int() reports too, next to ours
    expect(errorOf(pathId, '9007199254740992')).toContain('is too large');
    expect(errorOf(pathId, '9999999999999999')).toContain('is too large');
    expect(pathId.safeParse('99999999999999999999').success).toBe(false);
  });
});

describe('text', () => {
  const name = text({ max: 5 });

  it('accepts text up to the maximum length, unchanged', () => {
    expect(name.parse('a')).toBe('a');
    expect(name.parse(' abc ')).toBe(' abc ');
    expect(name.parse('abcde')).toBe('abcde');
  });

  it('rejects empty and whitespace-only strings', () => {
    expect(errorOf(name, '')).toContain('must not be empty');
    expect(errorOf(name, '   ')).toContain('must not be empty');
    expect(errorOf(name, '\t\n')).toContain('must not be empty');
  });

  it('rejects text that is too long', () => {
    expect(errorOf(name, 'abcdef')).toBe('must be at most 5 characters');
  });

  it('rejects non-strings', () => {
    expect(name.safeParse(5).success).toBe(false);
    expect(name.safeParse(null).success).toBe(false);
  });
});

const ARRAY_MESSAGE = 'must be a JSON array (or [a, b] with unquoted items)';

describe('formArray', () => {
  const tags = formArray(z.string());

  it('decodes JSON-array text (form calls)', () => {
    expect(tags.parse('["a","b"]')).toEqual(['a', 'b']);
    expect(tags.parse('[]')).toEqual([]);
  });

  it('accepts a real array (JSON calls)', () => {
    expect(tags.parse(['x'])).toEqual(['x']);
  });

  it('checks every item with the item schema', () => {
    const result = tags.safeParse('["a", 2]');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].path).toEqual([1]);
    expect(formArray(z.number().int()).parse('[1,2,3]')).toEqual([1, 2, 3]);
  });

  it.each(['{"a":1}', '"a"', '1', 'null', 'true'])('rejects non-array JSON %s', (value) => {
    expect(errorOf(tags, value)).toBe(ARRAY_MESSAGE);
  });

  it('reads the bracketed unquoted list form (Java toString, Python "[%s]")', () => {
    expect(tags.parse('[Java_mail]')).toEqual(['Java_mail']);
    expect(tags.parse('[a, b c, d]')).toEqual(['a', 'b c', 'd']);
    expect(tags.parse('[a,b]')).toEqual(['a', 'b']);
    expect(tags.parse("[ann.o'neil@x.test]")).toEqual(["ann.o'neil@x.test"]);
  });

  it('still checks every item of the bracketed form with the item schema', () => {
    const tagLike = formArray(z.string().regex(/^[A-Za-z][A-Za-z0-9_ ]*$/));
    expect(tagLike.safeParse('[Java_mail, 1bad]').error?.issues[0].path).toEqual([1]);
    expect(formArray(z.number()).safeParse('[1x]').success).toBe(false);
  });

  it.each(['a,b', '["a",', '', '[a,, b]', '[a,  b]', '[ a]', '[a ]', '[a, "b"]', '[a, [b]]', '[a\\b]', '[', 'a]', '[a] '])(
    'rejects text that is neither JSON nor an unambiguous bracketed list: %j',
    (value) => {
      expect(errorOf(tags, value)).toBe(ARRAY_MESSAGE);
    },
  );

  it('rejects non-array values', () => {
    expect(errorOf(tags, { 0: 'a' })).toBe(ARRAY_MESSAGE);
    expect(errorOf(tags, 3)).toBe(ARRAY_MESSAGE);
  });
});

describe('bracketList', () => {
  it('splits on a comma and one optional space', () => {
    expect(bracketList('[x, y,z]')).toEqual(['x', 'y', 'z']);
  });

  it('is undefined for the empty list and for anything ambiguous', () => {
    for (const text of ['[]', '[,]', '[a,]', '[a, ]', '["a"]', '[a]b', 'x']) expect(bracketList(text)).toBeUndefined();
  });
});

describe('queryEnum', () => {
  const type = queryEnum(['PERSON', 'COMPANY']);

  it('reads the value as is, or inside one pair of quotes', () => {
    expect(type.parse('PERSON')).toBe('PERSON');
    expect(type.parse("'PERSON'")).toBe('PERSON');
    expect(type.parse('"COMPANY"')).toBe('COMPANY');
  });

  it.each(["'person'", 'person', "'PERSON", "PERSON'", "''PERSON''", '\'PERSON"', "''", "'", ' PERSON', "'PERSON '"])('refuses %j', (value) => {
    expect(type.safeParse(value).success).toBe(false);
  });
});
