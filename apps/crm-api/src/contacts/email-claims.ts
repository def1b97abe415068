import { HttpError } from '@lib/errors';
import type { Connection } from 'mongoose';
import { contactModel, emailClaimModel } from './contact.model';

/** A claim older than this whose contact does not hold the email was left by a crash: it may be taken over. */
const STALE_CLAIM_MS = 60_000;

export const duplicateEmail = (email: string) =>
  new HttpError(400, 'duplicate_email', `A person with the email ${email} already exists in this account`, {
    details: [{ field: 'properties', message: `email ${email} is already used by another person` }],
  });

/**
 * Person emails are unique per account. Each email is claimed by inserting `<account>:<email>` as
 * an `_id`, which the database keeps unique under any concurrency, before the contact is written.
 */
export function emailClaims(connection: Connection) {
  const Claim = emailClaimModel(connection);
  const Contact = contactModel(connection);
  const key = (account: number, email: string) => `${account}:${email}`;

  async function claimOne(account: number, contact: number, email: string): Promise<boolean> {
    const _id = key(account, email);
    try {
      await Claim.create({ _id, contact, claimed_at: Date.now() });
      return true;
    } catch (err) {
      if ((err as { code?: number }).code !== 11000) throw err;
    }
    const holder = await Claim.findById(_id).lean();
    if (!holder) return claimOne(account, contact, email); // released meanwhile
    if (holder.contact === contact) return false;
    const fresh = Date.now() - (holder.claimed_at ?? 0) < STALE_CLAIM_MS;
    if (fresh || (await Contact.exists({ _id: holder.contact, account, type: 'PERSON', emails: email }))) throw duplicateEmail(email);
    const taken = await Claim.updateOne({ _id, contact: holder.contact }, { $set: { contact, claimed_at: Date.now() } });
    if (!taken.modifiedCount) throw duplicateEmail(email);
    return true;
  }

  return {
    /** Claims every email for the contact; on any conflict releases what this call claimed and throws 400. */
    async claim(account: number, contact: number, emails: string[]): Promise<string[]> {
      const claimed: string[] = [];
      try {
        for (const email of emails) if (await claimOne(account, contact, email)) claimed.push(email);
        return claimed;
      } catch (err) {
        await this.release(account, contact, claimed);
        throw err;
      }
    },

    async release(account: number, contact: number, emails: string[]): Promise<void> {
      if (emails.length) await Claim.deleteMany({ _id: { $in: emails.map((e) => key(account, e)) }, contact });
    },

    async releaseAll(contact: number): Promise<void> {
      await Claim.deleteMany({ contact });
    },
  };
}
