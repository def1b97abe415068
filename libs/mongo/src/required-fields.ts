/** A field's definition with `required: true` added: a bare type (`String`) becomes `{ type: String, required: true }`. */
type Required<F> = F extends { type: unknown } ? F & { required: true } : { type: F; required: true };

/**
 * The schema definition of fields that every document has, given by type: `{ name: String, role:
 * { type: String, enum: ROLES } }` is `{ name: { type: String, required: true }, role: { type:
 * String, enum: ROLES, required: true } }`. Optional fields and defaults go beside it.
 */
export function requiredFields<T extends Record<string, unknown>>(fields: T): { [K in keyof T]: Required<T[K]> } {
  const isOptions = (field: unknown): field is object => typeof field === 'object' && field !== null && 'type' in field;
  return Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, isOptions(field) ? { ...field, required: true } : { type: field, required: true }])) as {
    [K in keyof T]: Required<T[K]>;
  };
}
