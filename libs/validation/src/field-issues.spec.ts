import { HttpError } from '@lib/errors';
import { z } from 'zod';
import { fieldIssues } from './field-issues';
import { parseOrThrow } from './parse';

const contact = z.strictObject({
  name: z.string(),
  type: z.enum(['PERSON', 'COMPANY']),
  address: z.strictObject({ city: z.string() }).optional(),
  tags: z.array(z.string()).optional(),
});

function issuesOf(schema: z.ZodType, value: unknown, location: 'body' | 'query' | 'params' = 'body') {
  const result = schema.safeParse(value);
  if (result.success) throw new Error('expected the value to be rejected');
  return fieldIssues(result.error, location);
}

describe('fieldIssues', () => {
  it('says a missing field "is required"', () => {
    expect(issuesOf(contact, { type: 'PERSON' })).toEqual([{ field: 'name', message: 'is required' }]);
  });

  it('names each unknown key, with body and query wording', () => {
    expect(issuesOf(contact, { name: 'A', type: 'PERSON', colour: 'red', size: 1 })).toEqual([
      { field: 'colour', message: 'is not an accepted field' },
      { field: 'size', message: 'is not an accepted field' },
    ]);
    expect(issuesOf(z.strictObject({ page: z.string().optional() }), { pge: '1' }, 'query')).toEqual([
      { field: 'pge', message: 'is not an accepted parameter' },
    ]);
  });

  it('names nested fields by their dotted path', () => {
    expect(issuesOf(contact, { name: 'A', type: 'PERSON', address: { town: 'X' } })).toEqual([
      { field: 'address.city', message: 'is required' },
      { field: 'address.town', message: 'is not an accepted field' },
    ]);
    expect(issuesOf(contact, { name: 'A', type: 'PERSON', tags: ['ok', 3] })).toEqual([
      { field: 'tags.1', message: expect.stringContaining('expected string') },
    ]);
  });

  it('rejects an enum value in the wrong case, naming the field and the accepted values', () => {
    const [issue, ...rest] = issuesOf(contact, { name: 'A', type: 'person' });
    expect(rest).toEqual([]);
    expect(issue.field).toBe('type');
    expect(issue.message).toContain('PERSON');
    expect(issue.message).not.toBe('is required');
  });

  it('reports a wrong type with zod\'s message, not "is required"', () => {
    expect(issuesOf(contact, { name: 12, type: 'PERSON' })).toEqual([
      { field: 'name', message: 'Invalid input: expected string, received number' },
    ]);
  });

  it('names the location when the whole value is wrong', () => {
    expect(issuesOf(contact, 'not an object')).toEqual([{ field: 'body', message: expect.stringContaining('expected object') }]);
    expect(issuesOf(z.strictObject({}), null, 'query')[0].field).toBe('query');
  });
});

describe('parseOrThrow', () => {
  it('returns the parsed output', () => {
    const schema = z.strictObject({ n: z.string().transform(Number) });
    expect(parseOrThrow(schema, { n: '5' }, 'query')).toEqual({ n: 5 });
  });

  it('throws a 400 validation_failed naming every bad field', () => {
    let caught: unknown;
    try {
      parseOrThrow(contact, { type: 'person', extra: true }, 'body');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(HttpError);
    const err = caught as HttpError;
    expect(err.status).toBe(400);
    expect(err.code).toBe('validation_failed');
    expect(err.details?.map((d) => d.field).sort()).toEqual(['extra', 'name', 'type']);
    expect(err.message).toContain('name: is required');
    expect(err.message).toContain('extra: is not an accepted field');
    expect(err.message).toMatch(/type: .*PERSON/);
  });

  it('says "is required" for a missing enum, literal or union field, but not for a wrong one', () => {
    const schema = z.strictObject({ type: z.enum(['PERSON']), v: z.literal(1), id: z.union([z.string(), z.number()]) });
    const details = (value: unknown) => {
      try {
        parseOrThrow(schema, value, 'body');
      } catch (err) {
        return (err as HttpError).details;
      }
      throw new Error('expected a rejection');
    };
    expect(details({})).toEqual([
      { field: 'type', message: 'is required' },
      { field: 'v', message: 'is required' },
      { field: 'id', message: 'is required' },
    ]);
    const wrong = details({ type: 'person', v: 2, id: null });
    expect(wrong?.map((d) => d.field)).toEqual(['type', 'v', 'id']);
    for (const issue of wrong ?? []) expect(issue.message).not.toBe('is required');
  });

  it('accepts the exact enum value', () => {
    expect(parseOrThrow(contact, { name: 'Ada', type: 'PERSON' }, 'body')).toEqual({ name: 'Ada', type: 'PERSON' });
  });
});
