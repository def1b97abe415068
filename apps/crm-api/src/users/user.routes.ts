import { XML_NAMES } from '../http/xml-names';
import { xmlList, xmlRoot, type AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import { commonErrors } from '../http/errors.outputs';
import { userOutput } from '../accounts/user.outputs';
import { userView } from '../accounts/user.view';
import type { AccountStore } from '../store/crm-store';

const TAGS = ['users'];
const caller = { description: 'The user whose credentials were sent', schema: xmlRoot(userOutput, XML_NAMES.user.root) };

/** The users of the account, by id. */
export const usersOf = (store: AccountStore) => store.users.all();

export function userRoutes(): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/dev/api',
      auth: 'basic',
      summary: 'Handshake: the calling user (its domain is the account)',
      description: 'The Java client (agilecrm/java-api) calls it when it is constructed, to check its credentials.',
      tags: TAGS,
      responses: { 200: caller, 401: commonErrors[401] },
      handler: ({ user }) => ({ status: 200, body: userView(user) }),
    }),
    defineRoute({
      method: 'get',
      path: '/dev/api/users',
      auth: 'basic',
      summary: 'Users of the account',
      tags: TAGS,
      responses: { 200: { description: 'Every user of the account', schema: xmlList(userOutput, XML_NAMES.users) }, 401: commonErrors[401] },
      handler: async ({ store }) => ({ status: 200, body: (await usersOf(store)).map(userView) }),
    }),
    defineRoute({
      method: 'get',
      path: '/dev/api/users/current-user',
      auth: 'basic',
      summary: 'The calling user',
      tags: TAGS,
      responses: { 200: caller, 401: commonErrors[401] },
      handler: ({ user }) => ({ status: 200, body: userView(user) }),
    }),
  ];
}
