import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A ULID (26 characters of Crockford base32: 48 bits of milliseconds, then 80 random bits): ids
 * that sort by creation time as strings and reveal nothing else. Event ids (`msg_…`, the
 * `webhook-id` header) and delivery ids (`dlv_…`) are made of one.
 */
export function ulid(nowMs: number = Date.now()): string {
  let time = '';
  for (let ms = Math.floor(nowMs), i = 0; i < 10; i++, ms = Math.floor(ms / 32)) time = CROCKFORD[ms % 32] + time;
  const random = randomBytes(16);
  let tail = '';
  for (let i = 0; i < 16; i++) tail += CROCKFORD[random[i] % 32];
  return time + tail;
}

export const newEventId = (nowMs?: number) => `msg_${ulid(nowMs)}`;
export const newDeliveryId = (nowMs?: number) => `dlv_${ulid(nowMs)}`;
