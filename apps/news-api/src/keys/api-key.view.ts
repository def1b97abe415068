import type { z } from '@lib/validation';
import type { ApiKeyDoc } from './api-key.model';
import type { keyOutput, newKeyOutput, usageOutput } from './api-key.schemas';
import type { UsageRow } from './api-key.service';

/** The wire shape of a key: never its hash, and the key itself only when it is created. */
export const keyView = (doc: ApiKeyDoc): z.input<typeof keyOutput> => ({ id: doc._id, name: doc.name, createdAt: doc.created_at.toISOString() });

export const newKeyView = (doc: ApiKeyDoc, key: string): z.input<typeof newKeyOutput> => ({ id: doc._id, name: doc.name, key, createdAt: doc.created_at.toISOString() });

export const usageView = ({ from, to, rows }: { from: string; to: string; rows: UsageRow[] }, quota: number): z.input<typeof usageOutput> => ({
  from,
  to,
  data: rows.map((row) => ({ day: row.day, key: { id: row.key._id, name: row.key.name }, requests: row.requests, quota })),
});
