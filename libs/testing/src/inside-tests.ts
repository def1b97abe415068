/**
 * What a `use…` helper set up in its `beforeAll`, read through a getter: `value` once it exists,
 * else an error naming `what` (it was read outside a test, or its set-up failed).
 */
export function insideTests<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is only available inside tests`);
  return value;
}
