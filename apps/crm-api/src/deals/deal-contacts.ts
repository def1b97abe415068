import type { Connection } from 'mongoose';
import { dealModel } from './deal.model';

/** A deleted contact leaves every deal of the account (one atomic `$pull` per deal). */
export async function forgetContactInDeals(connection: Connection, account: number, contactId: number): Promise<void> {
  await dealModel(connection).updateMany({ account, contact_ids: contactId }, { $pull: { contact_ids: contactId } });
}
