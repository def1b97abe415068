/** One key of a keyset ordering; the last key must be unique (the tie-breaker, usually `_id`). */
export interface SortKey {
  field: string;
  direction: 1 | -1;
}

type Filter = Record<string, unknown>;

/**
 * The filter selecting documents strictly after `after` in the given ordering:
 * (a > x) or (a = x and b > y) or … — the keyset form of "skip what you have seen".
 */
export function keysetAfter(keys: SortKey[], after: unknown[]): Filter {
  if (keys.length !== after.length || keys.length === 0) throw new Error('keysetAfter: one value per sort key');
  const branches: Filter[] = keys.map((key, i) => {
    const branch: Filter = {};
    for (let j = 0; j < i; j++) branch[keys[j].field] = after[j];
    branch[key.field] = { [key.direction === 1 ? '$gt' : '$lt']: after[i] };
    return branch;
  });
  return branches.length === 1 ? branches[0] : { $or: branches };
}

/** The mongo sort object for the keys, in order. */
export function sortOf(keys: SortKey[]): Record<string, 1 | -1> {
  return Object.fromEntries(keys.map((k) => [k.field, k.direction]));
}

/** Splits a `page_size + 1` fetch into the page and whether another page exists. */
export function takePage<T>(fetched: T[], pageSize: number): { items: T[]; hasMore: boolean } {
  return { items: fetched.slice(0, pageSize), hasMore: fetched.length > pageSize };
}
