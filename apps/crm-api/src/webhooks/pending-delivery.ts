import { newDeliveryId } from './ids';
import type { DeliveryDoc } from './webhook-delivery.model';

/** What names a delivery: the rest of a new one is the same for every delivery recorded. */
export type DeliveryFields = Pick<DeliveryDoc, 'webhook' | 'event_id' | 'event' | 'resource' | 'seq' | 'body' | 'trace' | 'replay_of'>;

/** A new delivery, due now, of no attempt yet (the store's account scope adds `account`). */
export function pendingDelivery(fields: DeliveryFields, now = new Date()): Omit<DeliveryDoc, 'account'> {
  return { _id: newDeliveryId(now.getTime()), ...fields, state: 'pending', created_at: now, next_attempt_at: now, attempts: 0, log: [], reason: null, expires_at: null };
}
