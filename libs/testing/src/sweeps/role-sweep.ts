import type { AnyRoute } from '@lib/routing';
import { CROSS_SITE_DESCRIPTION, routeTable } from '@lib/http';
import type { RawRequest } from './raw-client';
import { bodyFields, bodyTypes, encodeBody, encode, fillPath, formEncode, mediaType, pathParams, plausibleObject, queryFields } from './route-shape';
import { seededSnapshot, sendAndCheck, useLoopbackServer, type SweepTarget } from './sweep-target';

export interface RoleSweepTarget extends SweepTarget {
  /** Valid credentials of a signed-in caller without the privileged role, as request headers. */
  credentials(route: AnyRoute): Record<string, string>;
}

/**
 * A route is role-restricted when its table row documents a 403 answer other than the one every
 * write documents for a browser's cross-site request (libs/http cross-site.ts).
 */
const restricted = (route: AnyRoute) => 403 in route.responses && route.responses[403].description !== CROSS_SITE_DESCRIPTION;

/** A plausible request of the route: sample values in the path, query and body. */
function plausibleRequest(target: SweepTarget, route: AnyRoute): RawRequest {
  const names = [...pathParams(route), ...queryFields(route), ...bodyFields(route)];
  const values = Object.fromEntries(names.map((name) => [name, target.sample?.(name)]).filter(([, v]) => v !== undefined));
  const path = fillPath(route, (name) => encode(String(values[name] ?? 1)));
  const query = route.request?.query ? formEncode(plausibleObject(route.request.query, values)) : '';
  const url = query ? `${path}?${query}` : path;
  const type = bodyTypes(route)[0];
  if (!type) return { method: route.method, url, headers: { Accept: 'application/json' } };
  const body = plausibleObject(route.request?.body, values);
  return { method: route.method, url, headers: { Accept: 'application/json', 'Content-Type': mediaType(type) }, body: encodeBody(type, body) };
}

/**
 * Role checks generated from the route table: every route documenting a 403 answers 403 to a
 * signed-in caller without the role (and writes nothing), and no other route answers that caller
 * 403 — what the OpenAPI document says is what the app enforces.
 */
export function roleSweep(target: RoleSweepTarget): void {
  const server = useLoopbackServer(target);

  it('every route documenting 403 refuses a caller without the role, writing nothing; no other route answers 403', async () => {
    // a route the caller may use can write (a user's own records): each rejection is checked against the state before it
    let before = await seededSnapshot(target);
    const routes = routeTable(target.app);
    expect(routes.filter(restricted).length).toBeGreaterThan(0);
    let allowed = 0;
    for (const route of routes) {
      const req = plausibleRequest(target, route);
      const { res, after } = await sendAndCheck(target, server.port, { ...req, headers: { ...target.credentials(route), ...req.headers } }, before);
      before = after;
      const label = `${route.method} ${route.path}`;
      if (restricted(route)) {
        expect({ label, status: res.status }).toEqual({ label, status: 403 });
        expect(res.headers['content-type']).toMatch(/json/);
      } else {
        expect({ label, forbidden: res.status === 403 }).toEqual({ label, forbidden: false });
        if (res.status < 300 && route.security?.length) allowed++;
      }
    }
    // the credentials are valid: some protected route let the caller in
    expect(allowed).toBeGreaterThan(0);
  }, 30_000);
}
