import type { Connection } from 'mongoose';
import { dealModel } from './deal.model';

/** Enough for any burst of concurrent edits of one deal's contacts; each round re-reads them. */
const MAX_ROUNDS = 50;

/**
 * Removes the contact ids from the contact_ids of the deals matching `filter`. Each deal is one
 * compare-and-set on its list (written only if the list is still the one read, else re-read), so
 * concurrent edits are never lost. MongoDB's `$pull` would be one write, but the embedded
 * development database lacks it; this is correct on both.
 */
export async function removeContactsFromDeals(connection: Connection, filter: { account: number; _id?: number }, contactIds: number[]): Promise<void> {
  const Deal = dealModel(connection);
  const gone = new Set(contactIds);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const deals = await Deal.find({ ...filter, contact_ids: { $in: contactIds } }, { contact_ids: 1 }).lean();
    if (deals.length === 0) return;
    await Promise.all(
      deals.map((deal) =>
        Deal.updateOne({ _id: deal._id, account: filter.account, contact_ids: deal.contact_ids }, { $set: { contact_ids: deal.contact_ids.filter((id) => !gone.has(id)) } }),
      ),
    );
  }
  throw new Error(`contacts ${contactIds.join(', ')} could not be removed from the deals after ${MAX_ROUNDS} rounds`);
}

/** A deleted contact leaves every deal of the account. */
export const forgetContactInDeals = (connection: Connection, account: number, contactId: number) => removeContactsFromDeals(connection, { account }, [contactId]);
