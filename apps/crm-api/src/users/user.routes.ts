import { XML_NAMES } from '../http/xml-names';
import { xmlList, xmlRoot, type AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import { userOutput } from '../accounts/user.outputs';
import { userView } from '../accounts/user.view';
import type { AccountStore } from '../store/crm-store';

const TAGS = ['users'];
/** No route here takes input: no 400; the 401 is the scheme's, as on every basic route. */
const route = defineRoute.group({ auth: 'basic', tags: TAGS });
const caller = { description: 'The user whose credentials were sent', schema: xmlRoot(userOutput, XML_NAMES.user.root) };

/** The users of the account, by id. */
export const usersOf = (store: AccountStore) => store.users.all();

export function userRoutes(): AnyRoute[] {
  return [
    route.get('/dev/api', {
      summary: 'Handshake: the calling user (its domain is the account)',
      description: 'The Java client (agilecrm/java-api) calls it when it is constructed, to check its credentials.',
      responses: { 200: caller },
      handler: ({ user }) => ({ status: 200, body: userView(user) }),
    }),
    route.get('/dev/api/users', {
      summary: 'Users of the account',
      responses: { 200: { description: 'Every user of the account', schema: xmlList(userOutput, XML_NAMES.user.list) } },
      handler: async ({ store }) => ({ status: 200, body: (await usersOf(store)).map(userView) }),
    }),
    route.get('/dev/api/users/current-user', {
      summary: 'The calling user',
      responses: { 200: caller },
      handler: ({ user }) => ({ status: 200, body: userView(user) }),
    }),
  ];
}
