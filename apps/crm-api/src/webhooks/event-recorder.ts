import { traceCarrier } from '@lib/http/tracing';
import type { AccountStore } from '../store/crm-store';
import { eventNameInBody, matchesEvent, type EventName, type WebhookAction, type WebhookObject } from './webhook-events';
import type { DeliveryDoc } from './webhook-delivery.model';
import type { Subscription } from './webhook.repository';
import type { SubscriptionCache } from './subscriptions';
import { newEventId } from './ids';
import { pendingDelivery } from './pending-delivery';

/** One change of one record, as a write path reports it. */
export interface ChangeEvent {
  object: WebhookObject;
  action: WebhookAction;
  /** The record's id. */
  id: number;
  /**
   * The record as its GET shows it (JSON; for a delete, as it was), or a function giving it: called
   * only when a webhook receives the event.
   */
  data: unknown | (() => unknown | Promise<unknown>);
}

/** What a write gets from `withEvents`. */
export interface EventTransaction {
  /** Whether a webhook of the account receives any of these events: a write reads what only an event shows (a record before its delete) only then. */
  heard(...names: EventName[]): boolean;
  /** Records events of this write, in the order they happened, in the same transaction as its writes; stores nothing when no webhook listens to them. */
  record(...events: ChangeEvent[]): Promise<void>;
}

export interface EventRecorder {
  /**
   * Runs `write` so that the events it records are stored with its changes or not at all:
   *
   * - when an enabled webhook of the account listens to one of `names`, in one MongoDB transaction
   *   (`store.transaction`), which `record` writes the deliveries into; if `write` throws, nothing
   *   of it is stored and no event is sent. Every write `write` makes through the store joins the
   *   transaction (its session is carried by the async context). `write` may run again when the
   *   transaction meets another on the same records: it must not have effects outside the store.
   * - otherwise `write` runs once without a session and `record` stores nothing: a write of an
   *   account without a matching webhook pays one in-process cache lookup.
   *
   * Webhooks created (or changed) less than REVOCATION_BOUND_MS (1 s) ago may not be seen yet.
   */
  withEvents<T>(store: AccountStore, names: readonly EventName[], write: (tx: EventTransaction) => Promise<T>): Promise<T>;
}

export interface EventRecorderDeps {
  subscriptions: SubscriptionCache;
  /** Told the webhooks that received deliveries, after the commit (the worker's wake-up, the outbox cap). */
  afterCommit?: (webhooks: number[]) => void;
}

const resourceKey = (event: ChangeEvent) => `${event.object}:${event.id}`;
const readData = async (data: ChangeEvent['data']) => (typeof data === 'function' ? (data as () => unknown)() : data);

export function eventRecorder({ subscriptions, afterCommit }: EventRecorderDeps): EventRecorder {
  /** The deliveries of `events` for the webhooks listening to each, numbered per resource in the transaction. */
  async function deliveriesOf(store: AccountStore, listening: readonly Subscription[], events: ChangeEvent[]): Promise<Array<Omit<DeliveryDoc, 'account'>>> {
    const wanted = events.map((event) => ({ event, name: `${event.object}.${event.action}`, webhooks: listening.filter((s) => matchesEvent(s.events, `${event.object}.${event.action}`)) }));
    const heard = wanted.filter((w) => w.webhooks.length);
    if (!heard.length) return [];
    const seqs = await store.outbox.nextSeqs(heard.map((w) => resourceKey(w.event)));
    const trace = traceCarrier() ?? null;
    const now = new Date();
    const docs: Array<Omit<DeliveryDoc, 'account'>> = [];
    for (const { event, name, webhooks } of heard) {
      const key = resourceKey(event);
      const body = JSON.stringify({ eventName: eventNameInBody(name as EventName), eventData: await readData(event.data) });
      const eventId = newEventId(now.getTime());
      for (const webhook of webhooks) {
        docs.push(pendingDelivery({ webhook: webhook._id, event_id: eventId, event: name, resource: key, seq: seqs.get(key) ?? 0, body, trace, replay_of: null }, now));
      }
    }
    return docs;
  }

  return {
    async withEvents(store, names, write) {
      const all = await subscriptions.of(store);
      const listening = all.filter((s) => names.some((name) => matchesEvent(s.events, name)));
      const heard = (...events: EventName[]) => events.some((name) => names.includes(name) && listening.some((s) => matchesEvent(s.events, name)));
      if (!listening.length) {
        return write({
          heard,
          record: async (...events) => {
            // a write that records an event it did not name would lose it for a listening webhook
            const unnamed = events.map((e) => `${e.object}.${e.action}` as EventName).filter((name) => !names.includes(name) && all.some((s) => matchesEvent(s.events, name)));
            if (unnamed.length) throw new Error(`withEvents: ${unnamed.join(', ')} recorded but not named`);
          },
        });
      }
      let touched: number[] = [];
      const result = await store.transaction(async () => {
        touched = [];
        return write({
          heard,
          record: async (...events) => {
            const docs = await deliveriesOf(store, all, events);
            await store.outbox.insert(docs);
            touched.push(...docs.map((d) => d.webhook));
          },
        });
      });
      if (touched.length) afterCommit?.([...new Set(touched)]);
      return result;
    },
  };
}
