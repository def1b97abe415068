import type { AccountDoc } from '../accounts/account.model';
import type { DomainUserDoc } from '../accounts/domain-user.model';

declare const accountBrand: unique symbol;

/**
 * The id of the account a request may read and write: a number only the auth scheme (from the
 * signed-in user) and the cross-tenant module make. A bare number is not one, so no id read from a
 * request (`params.id`, a body field) can open another account's store.
 */
export type AccountId = number & { readonly [accountBrand]: true };

/** The account of a user the caller holds from authentication or a cross-tenant lookup. Lint lets only `auth/` and `store/` import it. */
export const accountIdOf = (user: Pick<DomainUserDoc, 'account'>): AccountId => user.account as AccountId;

/** The id of an account document found by a cross-tenant lookup (by domain). */
export const idOfAccount = (account: Pick<AccountDoc, '_id'>): AccountId => account._id as AccountId;
