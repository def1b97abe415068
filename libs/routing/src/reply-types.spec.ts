// The handler's answer is typed by its route's declared responses: these forms must not compile.
// `npm run typecheck` (tsc) fails if any `@ts-expect-error` below stops being an error. A field the
// schema does not declare is not among them: TypeScript does not check excess properties of an
// inferred return type, so the strict output schemas catch it at run time (auth-and-check.spec.ts).
import { z } from 'zod';
import { routeDefiner } from './route';

const defineRoute = routeDefiner<{ signedIn: { user: { id: number } } }>();
const item = z.strictObject({ id: z.number(), name: z.string() });
const responses = { 200: { description: 'The item', schema: item }, 204: { description: 'Nothing' } };

const routes = [
  defineRoute({ method: 'get', path: '/a', auth: 'signedIn', summary: 'ok', responses, handler: ({ user }) => ({ status: 200, body: { id: user.id, name: 'a' } }) }),
  defineRoute({ method: 'get', path: '/b', auth: 'public', summary: 'ok', responses, handler: () => ({ status: 204 }) }),
  defineRoute({ method: 'get', path: '/c', auth: 'public', summary: 'ok', responses, handler: async () => ({ status: 200, body: { id: 1, name: 'c' }, headers: { Location: '/c/1' } }) }),
  // @ts-expect-error a status the route does not declare
  defineRoute({ method: 'get', path: '/d', auth: 'public', summary: 'bad', responses, handler: () => ({ status: 201, body: { id: 1, name: 'd' } }) }),
  // @ts-expect-error a body of the wrong shape for its status
  defineRoute({ method: 'get', path: '/e', auth: 'public', summary: 'bad', responses, handler: () => ({ status: 200, body: { id: '1', name: 'e' } }) }),
  // @ts-expect-error a body for a status that declares none
  defineRoute({ method: 'get', path: '/g', auth: 'public', summary: 'bad', responses, handler: () => ({ status: 204, body: { id: 1, name: 'g' } }) }),
  // @ts-expect-error no body for a status that declares one
  defineRoute({ method: 'get', path: '/h', auth: 'public', summary: 'bad', responses, handler: () => ({ status: 200 }) }),
  // @ts-expect-error a public route has no signed-in user
  defineRoute({ method: 'get', path: '/i', auth: 'public', summary: 'bad', responses, handler: ({ user }) => ({ status: 200, body: { id: user.id, name: 'i' } }) }),
  // @ts-expect-error a handler that writes the response itself
  defineRoute({ method: 'get', path: '/j', auth: 'public', summary: 'bad', responses, handler: (_ctx: unknown, res: { end(): void }) => res.end() }),
];

const signedIn = defineRoute.group({ auth: 'signedIn', tags: ['items'] });
const open = defineRoute.group({ auth: 'public' });
const rows = [
  signedIn({ method: 'get', path: '/k', summary: 'ok', responses, handler: ({ user }) => ({ status: 200, body: { id: user.id, name: 'k' } }) }),
  // @ts-expect-error a row of a group does not name its auth: the group does
  signedIn({ method: 'get', path: '/l', auth: 'public', summary: 'bad', responses, handler: () => ({ status: 204 }) }),
  // @ts-expect-error a row answers only what it declares
  signedIn({ method: 'get', path: '/m', summary: 'bad', responses, handler: () => ({ status: 201, body: { id: 1, name: 'm' } }) }),
  // @ts-expect-error a row of a public group has no signed-in user
  open({ method: 'get', path: '/n', summary: 'bad', responses, handler: ({ user }) => ({ status: 200, body: { id: user.id, name: 'n' } }) }),
  signedIn.post('/o', { summary: 'ok', responses, handler: ({ user }) => ({ status: 200, body: { id: user.id, name: 'o' } }) }),
  // @ts-expect-error a method helper types the answer too
  signedIn.put('/p', { summary: 'bad', responses, handler: () => ({ status: 200, body: { id: '1', name: 'p' } }) }),
  // @ts-expect-error no such scheme
  defineRoute.group({ auth: 'signedOut' }),
];

it('the accepted forms define routes', () => {
  expect(routes.slice(0, 3).map((route) => route.path)).toEqual(['/a', '/b', '/c']);
  expect(rows[0]).toMatchObject({ method: 'get', path: '/k', auth: 'signedIn', tags: ['items'] });
  expect(rows[4]).toMatchObject({ method: 'post', path: '/o', auth: 'signedIn', tags: ['items'] });
});
