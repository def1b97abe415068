import { driverCollection } from '@lib/mongo';
import type { Connection } from 'mongoose';
import { accountModel, type ContactReservation } from '../accounts/account.model';

export type Reservations = Record<string, ContactReservation>;
const reservationPath = (token: string) => `contact_reservations.${token}`;

/** The contact count and slot reservations kept on one account's document (see contact-slots.ts); driver writes. */
export function contactSlotRepository(connection: Connection, account: number) {
  const accounts = driverCollection(accountModel(connection));
  return {
    /** Counts one more contact and lists its reservation, only while fewer than `limit` are counted; the reservations after it, or undefined when full. */
    async reserve(token: string, reservation: ContactReservation, limit: number): Promise<{ reservations?: Reservations } | undefined> {
      const after = await accounts.findOneAndUpdate(
        { _id: account, contact_count: { $lt: limit } },
        { $inc: { contact_count: 1 }, $set: { [reservationPath(token)]: reservation } },
        { returnDocument: 'after', projection: { contact_reservations: 1 } },
      );
      return after ? { reservations: after.contact_reservations } : undefined;
    },
    async reservations(): Promise<Reservations | undefined> {
      return (await accounts.findOne({ _id: account }, { projection: { contact_reservations: 1 } }))?.contact_reservations;
    },
    /** Drops the reservation (once, however often called), giving its slot back unless `keepSlot`. */
    unreserve: (token: string, keepSlot: boolean) =>
      accounts.updateOne({ _id: account, [reservationPath(token)]: { $exists: true } }, { $unset: { [reservationPath(token)]: '' }, ...(!keepSlot && { $inc: { contact_count: -1 } }) }),
    /** The slot's contact is stored: the reservation goes, the count stays. */
    settle: (token: string) => accounts.updateOne({ _id: account }, { $unset: { [reservationPath(token)]: '' } }),
    /** The reservations left for a stored contact go, its slot stays (as settle does). */
    async settleContact(contact: number): Promise<void> {
      const found = await accounts.findOne({ _id: account }, { projection: { contact_reservations: 1 } });
      const tokens = Object.entries(found?.contact_reservations ?? {}).flatMap(([token, r]) => (r.contact === contact ? [token] : []));
      if (tokens.length) await accounts.updateOne({ _id: account }, { $unset: Object.fromEntries(tokens.map((token) => [reservationPath(token), ''])) });
    },
    /** A stored contact was deleted. */
    free: () => accounts.updateOne({ _id: account }, { $inc: { contact_count: -1 } }),
  };
}

export type ContactSlotRepository = ReturnType<typeof contactSlotRepository>;
