import { HttpError } from '@lib/errors';
import { isDuplicateKey } from '@lib/mongo';
import type { AccountStore } from '../store/crm-store';

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
export function emailClaims() {
  /**
   * Inserts a claim for each email in one command (unordered: each insert stands alone) and
   * answers the emails whose claim already existed.
   */
  async function insertClaims(store: AccountStore, contact: number, emails: string[]): Promise<string[]> {
    try {
      await store.claims.insertMany(contact, emails, Date.now());
      return [];
    } catch (err) {
      const { writeErrors = [], errorResponse } = err as { writeErrors?: { code?: number; index: number }[]; errorResponse?: unknown };
      if (writeErrors.length && writeErrors.every(isDuplicateKey)) return writeErrors.map((e) => emails[e.index]);
      // a server that refuses the whole batch for one duplicate (the embedded one) stored none: each email is tried on its own
      if (isDuplicateKey(err) && !writeErrors.length) return emails;
      // A driver failure (network, pool) comes wrapped in the bulk error: pass on the original, which
      // says the database is unavailable. Whatever was stored is taken over once stale, like a claim left by a crash.
      throw errorResponse instanceof Error ? errorResponse : err;
    }
  }

  /** An email whose claim exists: false when this contact holds it already; taken over when the holder's claim is stale; else 400. */
  async function claimHeld(store: AccountStore, contact: number, email: string): Promise<boolean> {
    const holder = await store.claims.holder(email);
    if (!holder) return claimOne(store, contact, email); // released meanwhile
    if (holder.contact === contact) return false;
    const fresh = Date.now() - (holder.claimed_at ?? 0) < STALE_CLAIM_MS;
    if (fresh || (await store.contacts.personHolds(holder.contact, email))) throw duplicateEmail(email);
    if (!(await store.claims.takeOver(email, holder.contact, contact, Date.now()))) throw duplicateEmail(email);
    return true;
  }

  async function claimOne(store: AccountStore, contact: number, email: string): Promise<boolean> {
    const held = await insertClaims(store, contact, [email]);
    return held.length === 0 || claimHeld(store, contact, email);
  }

  return {
    /**
     * Claims every email for the contact and answers the ones this call claimed; on any conflict
     * releases what this call claimed and throws 400.
     */
    async claim(store: AccountStore, contact: number, emails: string[]): Promise<string[]> {
      if (!emails.length) return [];
      const held = await insertClaims(store, contact, emails);
      const claimed = emails.filter((email) => !held.includes(email));
      try {
        for (const email of held) if (await claimHeld(store, contact, email)) claimed.push(email);
        return claimed;
      } catch (err) {
        await this.release(store, contact, claimed);
        throw err;
      }
    },

    async release(store: AccountStore, contact: number, emails: string[]): Promise<void> {
      if (emails.length) await store.claims.release(contact, emails);
    },

    async releaseAll(store: AccountStore, contact: number): Promise<void> {
      await store.claims.releaseAll(contact);
    },
  };
}
