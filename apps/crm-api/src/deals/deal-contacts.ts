import type { Connection } from 'mongoose';
import { removeFromLists } from '@lib/mongo';
import { dealModel } from './deal.model';

/** Removes the contact ids from the contact_ids of the deals matching `filter`, each deal atomically. */
export const removeContactsFromDeals = (connection: Connection, filter: { account: number; _id?: number }, contactIds: number[]) =>
  removeFromLists(dealModel(connection), filter, 'contact_ids', contactIds);

/** A deleted contact leaves every deal of the account. */
export const forgetContactInDeals = (connection: Connection, account: number, contactId: number) => removeContactsFromDeals(connection, { account }, [contactId]);
