import { XML_NAMES } from '../http/xml-names';
import { xmlList, xmlRoot, type AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import { commonErrors } from '../http/errors.outputs';
import { reply } from '../http/reply';
import type { AccountService } from '../accounts/account.service';
import { userOutput } from '../accounts/user.outputs';
import { userView } from '../accounts/user.view';

export function userRoutes(accounts: AccountService): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/dev/api',
      auth: 'basic',
      summary: 'Handshake: the calling user (its domain is the account)',
      description: 'The Java client (agilecrm/java-api) calls it when it is constructed, to check its credentials.',
      tags: ['users'],
      responses: { 200: { description: 'The user whose credentials were sent', schema: xmlRoot(userOutput, XML_NAMES.user.root) }, 401: commonErrors[401] },
      handler: ({ user, req }, res) => reply(req, res, userView(user), XML_NAMES.user),
    }),
    defineRoute({
      method: 'get',
      path: '/dev/api/users',
      auth: 'basic',
      summary: 'Users of the account',
      tags: ['users'],
      responses: { 200: { description: 'Every user of the account', schema: xmlList(userOutput, XML_NAMES.users) }, 401: commonErrors[401] },
      handler: async ({ user, req }, res) => {
        const users = await accounts.listUsers(user.account);
        reply(req, res, users.map(userView), XML_NAMES.users);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/dev/api/users/current-user',
      auth: 'basic',
      summary: 'The calling user',
      tags: ['users'],
      responses: { 200: { description: 'The user whose credentials were sent', schema: xmlRoot(userOutput, XML_NAMES.user.root) }, 401: commonErrors[401] },
      handler: ({ user, req }, res) => reply(req, res, userView(user), XML_NAMES.user),
    }),
  ];
}
