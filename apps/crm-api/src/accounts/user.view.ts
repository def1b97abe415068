import type { z } from '@lib/validation';
import type { userOutput } from './user.outputs';
import { hash } from 'node:crypto';
import type { DomainUserDoc } from './domain-user.model';

/** Passwords are never returned; the spec's samples show a masked placeholder. */
export const MASKED_PASSWORD = '**********';

/** The spec's Domain user object. */
export function userView(user: DomainUserDoc): z.input<typeof userOutput> {
  return {
    id: user._id,
    domain: user.domain,
    email: user.email,
    is_admin: user.is_admin,
    is_account_owner: user.is_account_owner,
    is_disabled: user.is_disabled,
    name: user.name,
    password: MASKED_PASSWORD,
    info_json_string: JSON.stringify({ logged_in_time: user.logged_in_time ?? 0, created_time: user.created_time }),
    hashedString: hash('sha256', `${user.domain}:${user._id}`, 'hex'),
  };
}

export type UserView = ReturnType<typeof userView>;
