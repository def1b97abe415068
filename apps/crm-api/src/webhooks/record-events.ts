import type { AccountStore } from '../store/crm-store';
import type { EventRecorder } from './event-recorder';
import type { WebhookObject } from './webhook-events';

/** How a resource's events show a record: as its GET does, read in the write's transaction. */
export interface RecordShape<Doc> {
  object: WebhookObject;
  /** The record as its GET shows it (JSON). */
  view(store: AccountStore, doc: Doc): unknown;
  /** The record as stored (read before a delete, only when a webhook listens). */
  read(store: AccountStore, id: number): Promise<Doc | null>;
}

/**
 * The webhook events of one resource's writes: each runs its write in `recorder.withEvents`, so
 * the event is stored with the change or not at all (a write that throws records nothing). A
 * record's view is made only when a webhook receives the event.
 */
export function recordEvents<Doc extends { _id: number }>(recorder: EventRecorder, shape: RecordShape<Doc>) {
  const { object } = shape;
  /** Runs `write`; the record it answers (none: nothing written) is reported with `action`. */
  const reporting =
    (action: 'created' | 'updated') =>
    <R extends Doc | null>(store: AccountStore, write: () => Promise<R>): Promise<R> =>
      recorder.withEvents(store, [`${object}.${action}`], async (tx) => {
        const doc = await write();
        if (doc) await tx.record({ object, action, id: doc._id, data: () => shape.view(store, doc) });
        return doc;
      });
  return {
    created: reporting('created'),
    updated: reporting('updated'),
    /** Runs the delete of record `id` (`write` answers whether it deleted it); the record is reported as it was. */
    deleted: (store: AccountStore, id: number, write: () => Promise<boolean>): Promise<boolean> =>
      recorder.withEvents(store, [`${object}.deleted`], async (tx) => {
        const before = tx.heard(`${object}.deleted`) ? await shape.read(store, id) : null;
        const view = before && (await shape.view(store, before));
        const deleted = await write();
        if (deleted && before) await tx.record({ object, action: 'deleted', id, data: view });
        return deleted;
      }),
  };
}

export type RecordEvents<Doc extends { _id: number }> = ReturnType<typeof recordEvents<Doc>>;
