import type { SortKey } from './keyset';

/**
 * A client's sort key (`created_time`, or `-created_time` for descending) as keyset keys, ending
 * with the tie-breaker in the same direction, so one ascending index serves both directions.
 */
export function sortKeysOf(name: string, tieBreaker = '_id'): SortKey[] {
  const direction = name.startsWith('-') ? -1 : 1;
  const field = direction === -1 ? name.slice(1) : name;
  if (!field || field === tieBreaker) throw new Error(`sortKeysOf: not a sort field: ${name}`);
  return [
    { field, direction },
    { field: tieBreaker, direction },
  ];
}

/** An ordering as text (`created_time:-1,_id:-1`), for a cursor to carry the order it belongs to. */
export const orderText = (keys: SortKey[]): string => keys.map((key) => `${key.field}:${key.direction}`).join(',');

/** The ordering `orderText` wrote; undefined for anything else. */
export function orderFromText(text: string): SortKey[] | undefined {
  const keys = text.split(',').map((part) => {
    const match = /^([A-Za-z_][A-Za-z0-9_]*):(1|-1)$/.exec(part);
    return match ? { field: match[1], direction: Number(match[2]) as 1 | -1 } : undefined;
  });
  return keys.every((key): key is SortKey => key !== undefined) ? keys : undefined;
}
