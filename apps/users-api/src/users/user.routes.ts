import { linkHeader, routeDefiner, type AnyRoute } from '@lib/routing';
import { createdBody, createQuery, errorResponse, listBody, listQuery } from './user.schemas';
import type { UserService } from './user.service';
import { userPageView, userView } from './user.view';

/** Listing is public; adding needs the API key when USERS_API_KEY is set (`apiKey`). */
const defineRoute = routeDefiner<{ apiKey: { user: undefined } }>();

export function userRoutes(users: UserService): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/users',
      auth: 'public',
      summary: 'List user records in the order they were added',
      description: 'Answers up to `limit` records; when more exist, `has_more` is true and `next_cursor` (also a `Link: rel="next"` header) fetches the next page.',
      tags: ['users'],
      request: { query: listQuery },
      responses: {
        200: { description: 'A page of user records', schema: listBody },
        400: errorResponse('Bad limit or cursor'),
      },
      handler: async ({ query }) => {
        const page = await users.page(query);
        const headers = page.next ? linkHeader({ next: `/users?limit=${query.limit}&cursor=${encodeURIComponent(page.next)}` }) : undefined;
        return { status: 200, body: userPageView(page), headers };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/users',
      auth: 'apiKey',
      summary: 'Append a user record from the query parameters name, age and city',
      tags: ['users'],
      request: { query: createQuery },
      responses: {
        200: { description: 'The created record, in a one-item list', schema: createdBody },
        400: errorResponse('A parameter is missing, empty or invalid'),
        401: errorResponse('API key missing or wrong (only when USERS_API_KEY is set)'),
      },
      handler: async ({ query }) => ({ status: 200, body: { data: [userView(await users.append(query))] } }),
    }),
  ];
}
