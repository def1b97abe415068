import { HttpError } from '@lib/errors';
import { driverCollection } from '@lib/mongo';
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

  /**
   * Inserts a claim for each email in one command (unordered: each insert stands alone) and
   * answers the emails whose claim already existed.
   */
  async function insertClaims(account: number, contact: number, emails: string[]): Promise<string[]> {
    const now = Date.now();
    try {
      await driverCollection(Claim).insertMany(
        emails.map((email) => ({ _id: key(account, email), contact, claimed_at: now })),
        { ordered: false },
      );
      return [];
    } catch (err) {
      const { code, writeErrors = [], errorResponse } = err as { code?: number; writeErrors?: { code?: number; index: number }[]; errorResponse?: unknown };
      if (writeErrors.length && writeErrors.every((e) => e.code === 11000)) return writeErrors.map((e) => emails[e.index]);
      // a server that refuses the whole batch for one duplicate (the embedded one) stored none: each email is tried on its own
      if (code === 11000 && !writeErrors.length) return emails;
      // A driver failure (network, pool) comes wrapped in the bulk error: pass on the original, which
      // says the database is unavailable. Whatever was stored is taken over once stale, like a claim left by a crash.
      throw errorResponse instanceof Error ? errorResponse : err;
    }
  }

  /** An email whose claim exists: false when this contact holds it already; taken over when the holder's claim is stale; else 400. */
  async function claimHeld(account: number, contact: number, email: string): Promise<boolean> {
    const _id = key(account, email);
    const holder = await Claim.findById(_id).lean();
    if (!holder) return claimOne(account, contact, email); // released meanwhile
    if (holder.contact === contact) return false;
    const fresh = Date.now() - (holder.claimed_at ?? 0) < STALE_CLAIM_MS;
    if (fresh || (await Contact.exists({ _id: holder.contact, account, type: 'PERSON', emails: email }))) throw duplicateEmail(email);
    const taken = await Claim.updateOne({ _id, contact: holder.contact }, { $set: { contact, claimed_at: Date.now() } });
    if (!taken.modifiedCount) throw duplicateEmail(email);
    return true;
  }

  async function claimOne(account: number, contact: number, email: string): Promise<boolean> {
    const held = await insertClaims(account, contact, [email]);
    return held.length === 0 || claimHeld(account, contact, email);
  }

  return {
    /**
     * Claims every email for the contact and answers the ones this call claimed; on any conflict
     * releases what this call claimed and throws 400.
     */
    async claim(account: number, contact: number, emails: string[]): Promise<string[]> {
      if (!emails.length) return [];
      const held = await insertClaims(account, contact, emails);
      const claimed = emails.filter((email) => !held.includes(email));
      try {
        for (const email of held) if (await claimHeld(account, contact, email)) claimed.push(email);
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
