import { z } from 'zod';
import type { SortKey } from './keyset';
import { orderFromText, orderText } from './sort-key';

/** A sort value a cursor can carry: numbers and strings as they are, dates as `{d: epoch ms}`. */
export type KeyValue = number | string | Date;

const MAX_KEYS = 8;

/**
 * What every cursor carries, signed: the sort values of the last item seen (`k`, one per sort key)
 * and the order they belong to (`o`, as `orderText` writes it).
 */
export const positionSchema = z.strictObject({
  k: z
    .array(z.union([z.number(), z.string().max(256), z.strictObject({ d: z.number().int() })]))
    .min(1)
    .max(MAX_KEYS),
  o: z.string().max(200),
});
export type Position = z.output<typeof positionSchema>;

function encodeValue(value: unknown, field: string): Position['k'][number] {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') return value;
  if (value instanceof Date && !Number.isNaN(value.getTime())) return { d: value.getTime() };
  throw new Error(`keyset paging: the sort field ${field} holds ${String(value)}, not a number, string or date`);
}

/** The position of `item` in `order`: what the next page starts after. */
export function positionOf(item: object, order: SortKey[]): Position {
  const fields = item as Record<string, unknown>;
  return { k: order.map(({ field }) => encodeValue(fields[field], field)), o: orderText(order) };
}

/** The order and sort values a decoded position holds; undefined when they do not fit together. */
export function readPosition(position: Position): { order: SortKey[]; after: KeyValue[] } | undefined {
  const order = orderFromText(position.o);
  if (!order || order.length !== position.k.length) return undefined;
  return { order, after: position.k.map((value) => (typeof value === 'object' ? new Date(value.d) : value)) };
}
