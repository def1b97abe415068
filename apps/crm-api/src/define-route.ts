import { routeDefiner } from '@lib/routing';
import type { BasicContext } from './auth/basic-auth';

/**
 * Every /dev/api route names its auth: `basic` (HTTP Basic, email + API key) signs in the user
 * `ctx.user` holds and opens the store of that user's account, `ctx.store`: the handler's only way
 * to tenant data.
 */
export const defineRoute = routeDefiner<{ basic: BasicContext }>();
