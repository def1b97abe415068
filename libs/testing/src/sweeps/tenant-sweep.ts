import type { Express } from 'express';
import type { AnyRoute } from '@lib/routing';
import { routeTable } from '@lib/http';
import { sendRaw, type RawRequest } from './raw-client';
import { useLoopbackServer } from './sweep-target';
import { encode, encodeBody, bodyFields, bodyTypes, fillPath, formEncode, mediaType, pathParams, plausibleObject, queryFields } from './route-shape';

/** The records of one tenant (account, user) that another must not reach. */
export interface TenantFixture {
  /** Values that point at the owner's records, by parameter/field name: ids, emails, cursors, search text. */
  values: Record<string, string | number>;
  /** A string stored only in the owner's records: an answer that holds it leaked them. */
  marker: string;
  /**
   * Credentials of the owner (or of whoever may read the owner's records, e.g. an admin when the
   * records are a user's own) and of the intruder (another tenant or user), as request headers.
   */
  owner: Record<string, string>;
  intruder: Record<string, string>;
}

export interface TenantSweepTarget {
  readonly app: Express;
  /** Stores the owner's records and returns what points at them. */
  setup(): Promise<TenantFixture>;
  /** The owner's stored records, to check the intruder changed nothing. */
  snapshotOwner(): Promise<string>;
}

/** Requests of `route` that carry the owner's values wherever the route takes a parameter of that name. */
function requestsWithValues(route: AnyRoute, values: Record<string, string | number>): RawRequest[] {
  const names = [...pathParams(route), ...queryFields(route), ...bodyFields(route)];
  if (!names.some((name) => name in values)) return [];
  const path = fillPath(route, (name) => encode(String(values[name] ?? 1)));
  const query = queryFields(route).length ? formEncode(plausibleObject(route.request?.query, values)) : '';
  const url = query ? `${path}?${query}` : path;
  const types = bodyTypes(route);
  if (!types.length) return [{ method: route.method, url, headers: { Accept: 'application/json' } }];
  const body = plausibleObject(route.request?.body, values);
  return types.map((type) => ({
    method: route.method,
    url,
    headers: { Accept: 'application/json', 'Content-Type': mediaType(type) },
    body: encodeBody(type, body),
  }));
}

/**
 * Cross-tenant checks generated from the route table: every route that takes an id, email, cursor
 * (any name in the fixture) is called by another tenant with the owner's values, in the path, the
 * query and the body. No answer may hold the owner's data, and the owner's records stay as they
 * were. The same requests by the owner must show the marker somewhere, or the check proves nothing.
 */
export function crossTenantSweep(target: TenantSweepTarget): void {
  const server = useLoopbackServer(target);

  it("every route taking an id, email or cursor refuses another tenant's values: nothing leaks, nothing changes", async () => {
    const fixture = await target.setup();
    const before = await target.snapshotOwner();
    const routes = routeTable(target.app).filter((route) => requestsWithValues(route, fixture.values).length);
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      for (const req of requestsWithValues(route, fixture.values)) {
        const res = await sendRaw(server.port, { ...req, headers: { ...req.headers, ...fixture.intruder } });
        const label = `${route.method} ${route.path} ${req.url} ${String(req.body ?? '').slice(0, 200)} → ${res.status}`;
        expect({ label, serverError: res.status >= 500 }).toEqual({ label, serverError: false });
        expect({ label, leaked: res.text.includes(fixture.marker) }).toEqual({ label, leaked: false });
        expect({ label, ownerDataChanged: (await target.snapshotOwner()) !== before }).toEqual({ label, ownerDataChanged: false });
      }
    }
    // the same reads by the owner do show the marker: the values really point at the owner's data
    let seenByOwner = 0;
    for (const route of routes.filter((r) => r.method === 'get')) {
      for (const req of requestsWithValues(route, fixture.values)) {
        const res = await sendRaw(server.port, { ...req, headers: { ...req.headers, ...fixture.owner } });
        if (res.text.includes(fixture.marker)) seenByOwner++;
      }
    }
    expect(seenByOwner).toBeGreaterThan(0);
  }, 30_000);
}
