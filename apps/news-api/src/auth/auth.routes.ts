import { defineRoute, type AnyRoute } from '@lib/routing';
import type { RequestHandler } from 'express';
import { errorBody } from '../error-schema';
import { authBody, authResult } from '../users/user.schemas';
import { userView } from '../users/user.view';
import { currentUser } from './jwt-auth';
import { signToken, type TokenSettings } from './tokens';

export function authRoutes(tokens: TokenSettings, beforeAuth: RequestHandler[]): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/auth',
      summary: 'Sign in: HTTP Basic (email, password) plus the master key as access_token; answers a JWT',
      tags: ['auth'],
      security: ['basic'],
      before: beforeAuth,
      request: { body: authBody, bodyTypes: ['form', 'json'] },
      responses: {
        201: { description: 'A token and the user', schema: authResult },
        401: { description: 'Wrong or missing credentials or master key (never says which)', schema: errorBody },
        429: { description: 'Too many failed attempts from this address', schema: errorBody },
      },
      handler: (_input, req, res) => {
        const user = currentUser(req);
        res.status(201).json({ token: signToken(tokens, user._id), user: userView(user) });
      },
    }),
  ];
}
