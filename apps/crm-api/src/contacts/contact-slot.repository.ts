import type { ContactReservation } from '../accounts/account.model';
import type { AccountDocument } from '../store/account-document';

export type Reservations = Record<string, ContactReservation>;
const reservationPath = (token: string) => `contact_reservations.${token}`;

/** The contact count and slot reservations kept on the account's own document (see contact-slots.ts); driver writes. */
export function contactSlotRepository(account: AccountDocument) {
  return {
    /** Counts one more contact and lists its reservation, only while fewer than `limit` are counted; the reservations after it, or undefined when full. */
    async reserve(token: string, reservation: ContactReservation, limit: number): Promise<{ reservations?: Reservations } | undefined> {
      const after = await account.findOneAndUpdate(
        { contact_count: { $lt: limit } },
        { $inc: { contact_count: 1 }, $set: { [reservationPath(token)]: reservation } },
        { projection: { contact_reservations: 1 } },
      );
      return after ? { reservations: after.contact_reservations } : undefined;
    },
    async reservations(): Promise<Reservations | undefined> {
      return (await account.findOne({ contact_reservations: 1 }))?.contact_reservations;
    },
    /** Drops the reservation (once, however often called), giving its slot back unless `keepSlot`. */
    unreserve: (token: string, keepSlot: boolean) =>
      account.updateOne({ [reservationPath(token)]: { $exists: true } }, { $unset: { [reservationPath(token)]: '' }, ...(!keepSlot && { $inc: { contact_count: -1 } }) }),
    /** The slot's contact is stored: the reservation goes, the count stays. */
    settle: (token: string) => account.updateOne({}, { $unset: { [reservationPath(token)]: '' } }),
    /** The reservations left for a stored contact go, its slot stays (as settle does). */
    async settleContact(contact: number): Promise<void> {
      const found = await account.findOne({ contact_reservations: 1 });
      const tokens = Object.entries(found?.contact_reservations ?? {}).flatMap(([token, r]) => (r.contact === contact ? [token] : []));
      if (tokens.length) await account.updateOne({}, { $unset: Object.fromEntries(tokens.map((token) => [reservationPath(token), ''])) });
    },
    /** A stored contact was deleted. */
    free: () => account.updateOne({}, { $inc: { contact_count: -1 } }),
  };
}

export type ContactSlotRepository = ReturnType<typeof contactSlotRepository>;
