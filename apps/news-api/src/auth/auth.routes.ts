import type { AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import { errorResponse } from '../error-schema';
import { authBody, authResult } from '../users/user.schemas';
import { userView } from '../users/user.view';
import { signToken, type TokenSettings } from './tokens';

export function authRoutes(tokens: TokenSettings): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/auth',
      auth: 'basic-and-master-key',
      summary: 'Sign in: HTTP Basic (email, password) plus the master key as access_token; answers a JWT',
      tags: ['auth'],
      request: { body: authBody, bodyTypes: ['form', 'json'] },
      responses: {
        201: { description: 'A token and the user', schema: authResult },
        401: errorResponse('Wrong or missing credentials or master key (never says which)'),
        429: errorResponse('Too many failed sign-ins of this email from this address, or from this address in all (Retry-After); nothing was checked'),
      },
      handler: ({ user }) => ({ status: 201, body: { token: signToken(tokens, user._id), user: userView(user) } }),
    }),
  ];
}
