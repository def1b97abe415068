import { randomUUID } from 'node:crypto';
import { HttpError } from '@lib/errors';
import type { ContactReservation } from '../accounts/account.model';
import type { AccountStore } from '../store/crm-store';
import type { Reservations } from './contact-slot.repository';

/**
 * How long a create may hold a slot before its contact is stored. A reservation older than this
 * was left by a process that died (SIGKILL, OOM, node loss): the next create that finds it settles
 * it, so a dead create gives its slot back within this bound.
 */
export const RESERVATION_MS = 60_000;

/** A create's hold on one slot of its account's contact limit, until its contact is stored or it gives up. */
export interface SlotReservation {
  token: string;
  /** The create gives up (503) rather than start its insert after this, so a live create never outlives its reservation. */
  insertBy: number;
}

export const contactLimitReached = (limit: number) => new HttpError(406, 'contact_limit_reached', `The account holds its limit of ${limit} contacts`);

const createTooSlow = () =>
  new HttpError(503, 'service_unavailable', 'The contact could not be stored in time; nothing was created, try again', { headers: { 'Retry-After': '1' } });

/**
 * The contact limit of each account. `contact_count` on the account counts its stored contacts plus
 * the slots reserved by creates in flight; each reservation is also listed on the account (token,
 * contact id, expiry), written in the same atomic update as the count, so a slot whose create died
 * is never lost: it is found, expired, and given back unless its contact was stored.
 */
export function contactSlots(limit: number) {

  /**
   * Settles the expired reservations of an account: each keeps its slot when its contact was
   * stored (the create died after its insert), else gives it back. Each is settled by one
   * conditional update, so concurrent settlers (replicas) give a slot back once. Answers how many
   * expired reservations were seen (each settled by the time this returns, by this call or another).
   */
  async function reclaimExpired(store: AccountStore, reservations: Reservations = {}): Promise<number> {
    const expired = Object.entries(reservations).filter(([, r]) => r.until < Date.now());
    for (const [token, r] of expired) {
      const stored = await store.contacts.exists(r.contact);
      await store.slots.unreserve(token, stored);
    }
    return expired.length;
  }

  async function tryReserve(store: AccountStore, contact: number): Promise<{ slot?: SlotReservation; reservations?: Reservations }> {
    const now = Date.now();
    const token = randomUUID();
    const reservation: ContactReservation = { contact, until: now + RESERVATION_MS };
    const reserved = await store.slots.reserve(token, reservation, limit);
    if (reserved) return { slot: { token, insertBy: now + RESERVATION_MS / 2 }, reservations: reserved.reservations };
    return { reservations: await store.slots.reservations() };
  }

  return {
    /**
     * Reserves one slot for the contact about to be stored under `contact`, atomically against the
     * limit; when the account is full, settles the reservations of dead creates first. 406 when full.
     */
    async reserve(store: AccountStore, contact: number): Promise<SlotReservation> {
      const first = await tryReserve(store, contact);
      // expired reservations seen on the way are settled now, so dead creates never pile up on the account
      const settled = await reclaimExpired(store, first.reservations);
      if (first.slot) return first.slot;
      const second = settled ? await tryReserve(store, contact) : first;
      if (second.slot) return second.slot;
      throw contactLimitReached(limit);
    },

    /** Throws 503 (before the insert) when the reservation is too old to be sure it is still held during the insert. */
    assertInTime(slot: SlotReservation): void {
      if (Date.now() > slot.insertBy) throw createTooSlow();
    },

    /** The contact is stored: the slot is its own from now on. */
    async settle(store: AccountStore, slot: SlotReservation): Promise<void> {
      await store.slots.settle(slot.token);
    },

    /** The create gave up: the slot goes back, once however often this is called. */
    async release(store: AccountStore, slot: SlotReservation): Promise<void> {
      await store.slots.unreserve(slot.token, false);
    },

    /**
     * Before a stored contact is deleted: a reservation its create left (the create died after its
     * insert, less than RESERVATION_MS ago) is settled now, as the create would have, so the slot
     * goes back once, by free(), and not again when the reservation expires.
     */
    settleStored: (store: AccountStore, contact: number): Promise<void> => store.slots.settleContact(contact),

    /** A stored contact was deleted: its slot goes back. */
    async free(store: AccountStore): Promise<void> {
      await store.slots.free();
    },
  };
}

export type ContactSlots = ReturnType<typeof contactSlots>;
