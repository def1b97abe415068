import { badRequest } from '@lib/errors';

const MAX_DEPTH = 20;

/**
 * Rejects input that could be read as a MongoDB operator or path (`$where`, `a.b`) and input nested
 * deeper than any of our schemas allow. Runs on every body and query before the schema does.
 */
export function assertSafeInput(value: unknown, location: string, depth = 0): void {
  if (depth > MAX_DEPTH) throw badRequest(`${location}: nested too deeply`);
  if (Array.isArray(value)) {
    value.forEach((item, i) => assertSafeInput(item, `${location}[${i}]`, depth + 1));
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, item] of Object.entries(value)) {
    if (key.startsWith('$') || key.includes('.') || key === '__proto__') {
      throw badRequest(`${location}: field name "${key}" is not allowed (no "$" prefix or "." inside names)`, [
        { field: key, message: 'is not an allowed field name' },
      ]);
    }
    assertSafeInput(item, location === 'body' || location === 'query' ? key : `${location}.${key}`, depth + 1);
  }
}
