import { driverCollection } from '@lib/mongo';
import type { Connection } from 'mongoose';
import { emailClaimModel, type EmailClaimDoc } from './contact.model';

/** A claim's `_id` is `<account>:<email>`: the account is part of every key. */
const key = (account: number, email: string) => `${account}:${email}`;
/** Every key of the account sorts from `<account>:` to before `<account>;` (`;` follows `:`). */
const keysOf = (account: number) => ({ $gte: `${account}:`, $lt: `${account};` });

/** The person emails claimed in one account (see email-claims.ts). */
export function emailClaimRepository(connection: Connection, account: number) {
  const Claim = emailClaimModel(connection);
  return {
    /** Inserts a claim of each email for `contact` in one unordered command (each insert stands alone); throws the driver's bulk error. */
    insertMany: (contact: number, emails: string[], now: number) =>
      driverCollection(Claim).insertMany(
        emails.map((email) => ({ _id: key(account, email), contact, claimed_at: now })),
        { ordered: false },
      ),
    holder: (email: string) => Claim.findById(key(account, email)).lean<EmailClaimDoc>(),
    /** Moves the claim from `from` to `to` unless it changed hands meanwhile; false then. */
    async takeOver(email: string, from: number, to: number, now: number): Promise<boolean> {
      const taken = await Claim.updateOne({ _id: key(account, email), contact: from }, { $set: { contact: to, claimed_at: now } });
      return taken.modifiedCount > 0;
    },
    release: (contact: number, emails: string[]) => Claim.deleteMany({ _id: { $in: emails.map((e) => key(account, e)) }, contact }),
    releaseAll: (contact: number) => Claim.deleteMany({ contact, _id: keysOf(account) }),
  };
}

export type EmailClaimRepository = ReturnType<typeof emailClaimRepository>;
