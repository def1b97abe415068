import { linkHeader, type AnyRoute } from '@lib/routing';
import { defineRoute } from '../define-route';
import { errorResponse } from '../error-schema';
import { pageView } from '../page.view';
import { createUserBody, idParams, listUsersQuery, tokenOnlyQuery, userOutput, userPage } from './user.schemas';
import type { UserService } from './user.service';
import { userView } from './user.view';

const signedOut = errorResponse('No token, or an expired, altered or unknown-user token');
const notAdmin = errorResponse('Signed in without the admin role');
const noUser = errorResponse('No user with that id');

export interface UserRouteDeps {
  users: UserService;
}

export function userRoutes({ users }: UserRouteDeps): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/users',
      auth: 'master-key',
      summary: 'Create a user (needs the master key)',
      description: 'Form or JSON fields `email`, `password`, optional `role`, and the master key as `access_token`.',
      tags: ['users'],
      request: { body: createUserBody, bodyTypes: ['form', 'json'] },
      responses: {
        201: { description: 'The new user', schema: userOutput },
        400: errorResponse('Bad email, weak password or unknown field'),
        401: errorResponse('Master key missing or wrong'),
        409: errorResponse('The email is already registered'),
        429: errorResponse('Too many failed attempts with this key from this address, or from this address in all (Retry-After); nothing was checked'),
      },
      handler: async ({ body }) => {
        const user = userView(await users.create(body));
        return { status: 201, body: user, headers: { Location: `/users/${user.id}` } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/users/me',
      auth: 'bearer-stored',
      summary: 'The signed-in user',
      tags: ['users'],
      request: { query: tokenOnlyQuery },
      responses: { 200: { description: 'The signed-in user', schema: userOutput }, 401: signedOut },
      handler: ({ user }) => ({ status: 200, body: userView(user) }),
    }),
    defineRoute({
      method: 'get',
      path: '/users',
      summary: 'List users, oldest first (admins)',
      tags: ['users'],
      auth: 'bearer-admin',
      request: { query: listUsersQuery },
      responses: { 200: { description: 'A page of users', schema: userPage }, 400: errorResponse('Bad limit or cursor'), 401: signedOut, 403: notAdmin },
      handler: async ({ query }) => {
        const page = await users.page(query);
        const headers = page.next ? linkHeader({ next: `/users?limit=${query.limit}&cursor=${encodeURIComponent(page.next)}` }) : undefined;
        return { status: 200, body: pageView(page, userView), headers };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/users/:id',
      summary: 'Read a user (admins)',
      tags: ['users'],
      auth: 'bearer-admin',
      request: { params: idParams, query: tokenOnlyQuery },
      responses: { 200: { description: 'The user', schema: userOutput }, 400: errorResponse('Bad id'), 401: signedOut, 403: notAdmin, 404: noUser },
      handler: async ({ params }) => ({ status: 200, body: userView(await users.get(params.id)) }),
    }),
    defineRoute({
      method: 'delete',
      path: '/users/:id',
      summary: 'Delete a user (admins); their tokens stop working (at once on this replica, within 10 s on the others)',
      tags: ['users'],
      auth: 'bearer-admin',
      request: { params: idParams, query: tokenOnlyQuery },
      responses: { 204: { description: 'Deleted' }, 400: errorResponse('Bad id'), 401: signedOut, 403: notAdmin, 404: noUser },
      handler: async ({ params }) => {
        await users.remove(params.id);
        return { status: 204 };
      },
    }),
  ];
}
