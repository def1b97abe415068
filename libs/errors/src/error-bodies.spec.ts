import { errorObjectBody, errorObjectSchema, errorObjectWithStatusBody, errorObjectWithStatusSchema, flatErrorBody, flatErrorSchema } from './error-bodies';

const rejected = { status: 400, code: 'validation_failed', message: 'name: is required', details: [{ field: 'name', message: 'is required' }] };
const failed = { status: 500, code: 'internal_error', message: 'Internal server error', errorId: 'e-1' };

describe('error body styles', () => {
  it('error object: { error: { code, message, fields?, error_id? } }, as its schema describes', () => {
    expect(errorObjectBody(rejected)).toEqual({ error: { code: 'validation_failed', message: 'name: is required', fields: [{ field: 'name', message: 'is required' }] } });
    expect(errorObjectBody(failed)).toEqual({ error: { code: 'internal_error', message: 'Internal server error', error_id: 'e-1' } });
    expect(errorObjectSchema.strict().safeParse(errorObjectBody(rejected)).success).toBe(true);
  });

  it('error object with status: the HTTP status first inside the error', () => {
    const body = errorObjectWithStatusBody(failed) as { error: object };
    expect(Object.keys(body.error)).toEqual(['status', 'code', 'message', 'error_id']);
    expect(body).toEqual({ error: { status: 500, code: 'internal_error', message: 'Internal server error', error_id: 'e-1' } });
    expect(errorObjectWithStatusSchema.safeParse(errorObjectWithStatusBody(rejected)).success).toBe(true);
    expect(errorObjectWithStatusSchema.safeParse(errorObjectBody(rejected)).success).toBe(false);
  });

  it('flat: { status: false, code, message, errors?, error_id? }', () => {
    expect(flatErrorBody(rejected)).toEqual({ status: false, code: 'validation_failed', message: 'name: is required', errors: [{ field: 'name', message: 'is required' }] });
    expect(flatErrorSchema.strict().safeParse(flatErrorBody(failed)).success).toBe(true);
    expect(flatErrorSchema.safeParse(errorObjectBody(failed)).success).toBe(false);
  });
});
