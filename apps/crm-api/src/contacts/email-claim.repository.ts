import type { KeyedScope } from '../store/keyed-scope';
import type { EmailClaimDoc } from './contact.model';

/** The person emails claimed in one account (see email-claims.ts), each under `<account>:<email>`. */
export function emailClaimRepository(scope: KeyedScope<EmailClaimDoc>) {
  return {
    /** Inserts a claim of each email for `contact` in one unordered command (each insert stands alone); throws the driver's bulk error. */
    insertMany: (contact: number, emails: string[], now: number) => scope.insertMany(emails.map((email) => ({ key: email, fields: { contact, claimed_at: now } }))),
    holder: (email: string) => scope.get(email),
    /** Moves the claim from `from` to `to` unless it changed hands meanwhile; false then. */
    async takeOver(email: string, from: number, to: number, now: number): Promise<boolean> {
      const taken = await scope.updateOne(email, { contact: from }, { $set: { contact: to, claimed_at: now } });
      return taken.modifiedCount > 0;
    },
    release: (contact: number, emails: string[]) => scope.deleteMany(emails, { contact }),
    releaseAll: (contact: number) => scope.deleteAll({ contact }),
  };
}

export type EmailClaimRepository = ReturnType<typeof emailClaimRepository>;
