import { conflict } from '@lib/errors';
import type { Model, UpdateQuery } from 'mongoose';
import { retryWhileRaced } from './retry';

/**
 * Removes `values` from the id list `field` of every record matching `filter` (and sets `alsoSet`
 * on those records), atomically per record: each write is a compare-and-set on the list as it was
 * read, and a record another write changed in between is read again and retried, so no concurrent
 * change of the list is lost. On MongoDB this is one `$pull` with a condition; the embedded
 * development database implements neither `$pull` nor pipeline updates (list-updates.spec.ts
 * records both refusals), hence the loop.
 */
export async function removeFromLists<T extends { _id: number }>(
  model: Model<T>,
  filter: Record<string, unknown>,
  field: string,
  values: number[],
  alsoSet: Record<string, unknown> = {},
): Promise<void> {
  if (values.length === 0) return;
  const matching = { ...filter, [field]: { $in: values } };
  await retryWhileRaced(
    async () => {
      const records = await model.find(matching, { [field]: 1 }).lean<Array<{ _id: number } & Record<string, number[]>>>();
      if (records.length === 0) return true;
      await Promise.all(
        records.map((record) => {
          const list = record[field];
          const kept = list.filter((value) => !values.includes(value));
          return model.updateOne({ _id: record._id, [field]: { $eq: list } }, { $set: { [field]: kept, ...alsoSet } } as UpdateQuery<T>);
        }),
      );
      return undefined;
    },
    () => conflict('The records are being changed by other requests; try again'),
  );
}
