import type { AnyRoute } from '@lib/validation';
import fc from 'fast-check';
import { routeTable } from '../build-app';
import { hostileRequest, OPERATOR_VALUES } from './hostile-arbitraries';
import { listenLoopback, sendRaw, type RawRequest } from './raw-client';
import { encode, bodyFields, bodyTypes, fillPath, formEncode, mediaType, pathParams, plausibleObject, queryFields } from './route-shape';
import { sendAndCheck, withCredentials, type SweepTarget } from './sweep-target';

export interface HostileInputOptions {
  /** Random requests per route (fast-check runs). */
  runsPerRoute?: number;
  /** Fixed fast-check seed for a reproducible run (a failure prints the seed to reuse). */
  seed?: number;
}

/** Every field of the route's query and body carrying each operator value or a dotted/`$` key. */
function operatorRequests(target: SweepTarget, route: AnyRoute): RawRequest[] {
  const path = fillPath(route, (name) => encode(String(target.sample?.(name) ?? 1)));
  const requests: RawRequest[] = [];
  const values = Object.fromEntries([...pathParams(route), ...queryFields(route), ...bodyFields(route)].map((n) => [n, target.sample?.(n)]).filter(([, v]) => v !== undefined));
  for (const field of queryFields(route)) {
    const base = plausibleObject(route.request?.query, values);
    for (const suffix of ['[$ne]', '[$gt]', '.x', '[$where]']) requests.push({ method: route.method, url: `${path}?${formEncode({ ...base, [`${field}${suffix}`]: '' })}`, headers: {} });
    requests.push({ method: route.method, url: `${path}?${formEncode(base)}&$where=1`, headers: {} });
  }
  // XML element names cannot start with `$`: operators cannot be written there (xml-input.spec covers dotted names)
  for (const type of bodyTypes(route).filter((t) => t !== 'xml')) {
    const base = plausibleObject(route.request?.body, values);
    const headers = { 'Content-Type': mediaType(type) };
    // in a form an array is JSON text, a plain string to the field: only object operators apply
    const operators = type === 'json' ? OPERATOR_VALUES : OPERATOR_VALUES.filter((op) => !Array.isArray(op));
    const bodies = [
      ...bodyFields(route).flatMap((field) => operators.map((op) => ({ ...base, [field]: op }))),
      { ...base, $where: '1' },
      { ...base, 'a.b': 1 },
      { $set: { ...base, x: 1 } },
    ];
    for (const body of bodies) {
      const text = type === 'json' ? JSON.stringify(body) : Object.entries(body).map(([k, v]) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.entries(v).map(([op, x]) => `${encode(`${k}[${op}]`)}=${encode(String(x))}`).join('&') : formEncode({ [k]: v }))).join('&');
      requests.push({ method: route.method, url: path, headers, body: text });
    }
  }
  return requests;
}

/**
 * Property-based hostile input for every route of the app's table (health, OpenAPI and every
 * resource route, including routes added later): random and malformed JSON, forms, query strings
 * and headers, deep and huge bodies, wrong content types, operators and dotted keys in every
 * field, bad ids and cursors. Never a 5xx or an internal detail, and a rejected request changes
 * nothing stored.
 */
export function hostileInputSweep(target: SweepTarget, options: HostileInputOptions = {}): void {
  // SWEEP_RUNS=200 npx nx test <app> runs a deeper sweep than npm test's default
  const runsPerRoute = options.runsPerRoute ?? (Number(process.env.SWEEP_RUNS) || 12);
  let server: Awaited<ReturnType<typeof listenLoopback>>;
  beforeAll(async () => {
    server = await listenLoopback(target.app);
  });
  afterAll(() => server.close());

  it('random and malformed input on every route of the table: never a 5xx, and a rejected request changes nothing', async () => {
    await target.seed?.();
    let before = await target.snapshot();
    for (const route of routeTable(target.app)) {
      await fc.assert(
        fc.asyncProperty(hostileRequest(route, target.sample), async (req) => {
          ({ after: before } = await sendAndCheck(target, server.port, withCredentials(target, route, req), before));
        }),
        { numRuns: runsPerRoute, seed: options.seed },
      );
    }
    expect((await sendRaw(server.port, { method: 'get', url: '/healthz', headers: {} })).status).toBe(200);
  }, 60_000);

  it('MongoDB operators, "$" and dotted keys in every query and body field are refused with a 4xx and change nothing', async () => {
    await target.seed?.();
    const before = await target.snapshot();
    let checked = 0;
    for (const route of routeTable(target.app)) {
      for (const req of operatorRequests(target, route)) {
        const { res } = await sendAndCheck(target, server.port, withCredentials(target, route, req), before);
        if (res.status < 400) throw new Error(`${route.method} ${route.path}: operator input was accepted (${res.status}): ${req.url} ${String(req.body).slice(0, 200)}`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  }, 60_000);
}
