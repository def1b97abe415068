import { routeDefiner } from '@lib/routing';
import type { UserDoc } from './users/user.model';

/**
 * The auth schemes of news-api (app.ts builds their middleware), each with the caller `ctx.user`
 * holds: a JWT (`bearer`: the user as cached for 10 s; `bearer-or-key`: the same, or an API key of
 * the user, counted against its limits; `bearer-stored`: read from the database;
 * `bearer-admin`: stored, with the admin role), the master key alone, HTTP Basic plus the master
 * key (sign-in), or an admin token or the master key (no user then).
 */
export type NewsUsers = {
  bearer: { user: UserDoc };
  'bearer-or-key': { user: UserDoc };
  'bearer-stored': { user: UserDoc };
  'bearer-admin': { user: UserDoc };
  'master-key': { user: undefined };
  'basic-and-master-key': { user: UserDoc };
  'admin-or-master-key': { user: UserDoc | undefined };
};

export const defineRoute = routeDefiner<NewsUsers>();
