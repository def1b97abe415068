import { routeDefiner } from '@lib/routing';
import type { DomainUserDoc } from './accounts/domain-user.model';

/** Every /dev/api route names its auth: `basic` (HTTP Basic, email + API key) signs in the user `ctx.user` holds. */
export const defineRoute = routeDefiner<{ basic: DomainUserDoc }>();
