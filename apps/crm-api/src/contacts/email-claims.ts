import { HttpError } from '@lib/errors';
import type { ForAccount } from '../store/account-scope';
import type { ContactRepository } from './contact.repository';
import type { EmailClaimRepository } from './email-claim.repository';

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
export function emailClaims(repositories: { claims: ForAccount<EmailClaimRepository>; contacts: ForAccount<ContactRepository> }) {
  const { claims, contacts } = repositories;

  /**
   * Inserts a claim for each email in one command (unordered: each insert stands alone) and
   * answers the emails whose claim already existed.
   */
  async function insertClaims(account: number, contact: number, emails: string[]): Promise<string[]> {
    try {
      await claims(account).insertMany(contact, emails, Date.now());
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
    const holder = await claims(account).holder(email);
    if (!holder) return claimOne(account, contact, email); // released meanwhile
    if (holder.contact === contact) return false;
    const fresh = Date.now() - (holder.claimed_at ?? 0) < STALE_CLAIM_MS;
    if (fresh || (await contacts(account).personHolds(holder.contact, email))) throw duplicateEmail(email);
    if (!(await claims(account).takeOver(email, holder.contact, contact, Date.now()))) throw duplicateEmail(email);
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
      if (emails.length) await claims(account).release(contact, emails);
    },

    async releaseAll(account: number, contact: number): Promise<void> {
      await claims(account).releaseAll(contact);
    },
  };
}
