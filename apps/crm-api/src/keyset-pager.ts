import { CursorCodec, keysetAfter, sortOf, takePage, type SortKey } from '@lib/paging';
import { queryInt, z } from '@lib/validation';
import type { Model } from 'mongoose';
import { MAX_PAGE_SIZE, pageParams, type Page } from './paging';

/**
 * `page_size` and `cursor` for lists the spec shows unpaged (notes, tasks and events of a
 * contact, T1–T4, E1): a whole list up to MAX_PAGE_SIZE by default, so clients written for
 * the unpaged original get everything they got; `cursor` on the last item when more follow.
 */
export const wholeListParams = {
  page_size: queryInt({ min: 1, max: MAX_PAGE_SIZE, description: `Items per page (default and at most ${MAX_PAGE_SIZE})` }).default(MAX_PAGE_SIZE),
  cursor: pageParams.cursor,
};

export const wholeListQuery = z.strictObject(wholeListParams);

const position = z.strictObject({ k: z.array(z.number()) });

/**
 * Keyset pages in any order of numeric fields ending with `_id` (the tie-breaker): due dates,
 * start times, newest first. Like crmPager, it fetches `page_size + 1`, counts the matches and
 * signs the next cursor for exactly this list (`scope`) and order.
 */
export function keysetPager(secret: string) {
  const cursors = new CursorCodec(secret);
  return {
    async page<T extends { _id: number }>(
      model: Model<T>,
      filter: Record<string, unknown>,
      order: SortKey[],
      params: { page_size: number; cursor?: string },
      scope: string,
    ): Promise<Page<T>> {
      const fields = order.map((key) => key.field);
      const signedScope = `${scope}|${fields.join(',')}`;
      const after = params.cursor ? cursors.decode(params.cursor, position, signedScope).k : undefined;
      const query = after ? { $and: [filter, keysetAfter(order, after)] } : filter;
      const [count, fetched] = await Promise.all([
        model.countDocuments(filter),
        model.find(query).sort(sortOf(order)).limit(params.page_size + 1).lean<T[]>(),
      ]);
      const { items, hasMore } = takePage(fetched, params.page_size);
      const last = items[items.length - 1] as Record<string, unknown> | undefined;
      const next = hasMore && last ? cursors.encode({ k: fields.map((field) => Number(last[field])) }, signedScope) : undefined;
      return { items, count, next };
    },
  };
}

export type KeysetPager = ReturnType<typeof keysetPager>;
