import type { AnyRoute } from '@lib/routing';
import type * as FastCheck from 'fast-check';
import { bodyLimitOf, limitBytes, routeTable } from '@lib/http';
import type * as Arbitraries from './hostile-arbitraries';
import { sendRaw, type RawRequest } from './raw-client';
import { encode, bodyFields, bodyTypes, fillPath, formEncode, mediaType, pathParams, plausibleObject, queryFields } from './route-shape';
import { MAX_REJECTION_BYTES, seededSnapshot, sendAndCheck, useLoopbackServer, withCredentials, type SweepTarget } from './sweep-target';

// Required when a sweep is declared, not imported: fast-check takes about a second to load into a
// jest module registry, which every spec importing @lib/testing would pay (most never sweep).
const fastCheck = () => require('fast-check') as typeof FastCheck;
const arbitraries = () => require('./hostile-arbitraries') as typeof Arbitraries;

export interface HostileInputOptions {
  /** Random requests per route (fast-check runs). */
  runsPerRoute?: number;
  /** Fixed fast-check seed for a reproducible run (a failure prints the seed to reuse). */
  seed?: number;
  /** How long each of the sweep's tests may take (default 60 s): an app with many routes and a large database snapshot takes more on a loaded machine. */
  timeoutMs?: number;
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
    const { OPERATOR_VALUES } = arbitraries();
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

/** Text no field may store (NUL, a control, an unpaired surrogate as a JSON escape); each field gets one, in turn. */
const UNSTORABLE_JSON = ['"a\\u0000b"', '"bell\\u0007"', '"x\\ud800"'];
const UNSTORABLE_RAW = ['a\u0000b', 'bell\u0007'];

/** Every path parameter, query field and body field of the route holding text the database cannot take. */
function unstorableRequests(target: SweepTarget, route: AnyRoute): RawRequest[] {
  const values = Object.fromEntries([...pathParams(route), ...queryFields(route), ...bodyFields(route)].map((n) => [n, target.sample?.(n)]).filter(([, v]) => v !== undefined));
  const sample = (name: string) => encode(String(target.sample?.(name) ?? 1));
  const path = fillPath(route, sample);
  const query = plausibleObject(route.request?.query, values);
  const search = route.request?.query ? `?${formEncode(query)}` : '';
  const raw = (i: number) => UNSTORABLE_RAW[i % UNSTORABLE_RAW.length];
  const requests: RawRequest[] = [];
  pathParams(route).forEach((param, i) => {
    requests.push({ method: route.method, url: `${fillPath(route, (name) => (name === param ? encode(raw(i)) : sample(name)))}${search}`, headers: {} });
  });
  queryFields(route).forEach((field, i) => {
    requests.push({ method: route.method, url: `${path}?${formEncode({ ...query, [field]: raw(i) })}`, headers: {} });
  });
  for (const type of bodyTypes(route)) {
    const base = plausibleObject(route.request?.body, values);
    const headers = { 'Content-Type': mediaType(type) };
    bodyFields(route).forEach((field, i) => {
      if (type === 'json') {
        // alternately as the value and inside an array (tags, ids, …)
        const text = UNSTORABLE_JSON[i % UNSTORABLE_JSON.length];
        const value = i % 2 === 0 ? text : `["ok",${text}]`;
        const body = JSON.stringify({ ...base, [field]: 0 }).replace(`${JSON.stringify(field)}:0`, `${JSON.stringify(field)}:${value}`);
        requests.push({ method: route.method, url: `${path}${search}`, headers, body });
      } else {
        requests.push({ method: route.method, url: `${path}${search}`, headers, body: formEncode({ ...base, [field]: raw(i) }) });
      }
    });
  }
  return requests;
}

/**
 * Malformed bodies just under the app's body limit for a route: its fields holding huge arrays of
 * bad items and a body of unknown keys (JSON); a field holding an array and one holding a string of
 * NULs (forms, where the route takes them).
 */
/** `[0,0,…]` of about `bytes` characters, made once per size (megabytes take a moment to build). */
const zerosOf = (() => {
  const made = new Map<number, string>();
  return (bytes: number) => {
    let zeros = made.get(bytes);
    if (zeros === undefined) {
      zeros = `[${new Array(Math.floor(bytes / 2)).fill(0).join(',')}]`;
      made.set(bytes, zeros);
    }
    return zeros;
  };
})();

/** Two malformed bodies per body type of the route, each about `limit` bytes. */
const BODIES_PER_TYPE = 2;

function bodiesAtTheLimit(route: AnyRoute, limit: number): RawRequest[] {
  const room = limit - 1024;
  const fields = bodyFields(route);
  const field = fields[0] ?? 'x';
  const zeros = zerosOf(room);
  const unknownKeys = (n: number, form: boolean) => Array.from({ length: n }, (_, i) => (form ? `unknown_key_${i}=1` : `"unknown_key_${i}":1`)).join(form ? '&' : ',');
  const keyCount = Math.floor(room / 20);
  const requests: RawRequest[] = [];
  for (const type of bodyTypes(route)) {
    const headers = { 'Content-Type': mediaType(type) };
    if (type === 'json') {
      requests.push({ method: route.method, url: route.path, headers, body: `{${fields.map((f) => `${JSON.stringify(f)}:${zeros.slice(0, Math.floor(room / fields.length || room))}`).join(',')}}` });
      requests.push({ method: route.method, url: route.path, headers, body: `{${unknownKeys(keyCount, false)}}` });
    } else {
      requests.push({ method: route.method, url: route.path, headers, body: fields.map((f) => `${encode(f)}=${encode(zeros.slice(0, Math.floor(room / 3 / (fields.length || 1))))}`).join('&') });
      requests.push({ method: route.method, url: route.path, headers, body: `${encode(field)}=${'%00'.repeat(Math.floor(room / 3))}` });
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
  const timeoutMs = options.timeoutMs ?? 60_000;
  // SWEEP_RUNS=200 npx nx test <app> runs a deeper sweep than npm test's default
  const runsPerRoute = options.runsPerRoute ?? (Number(process.env.SWEEP_RUNS) || 12);
  const server = useLoopbackServer(target);
  const fc = fastCheck();
  const { hostileRequest } = arbitraries();

  it('random and malformed input on every route of the table: never a 5xx, and a rejected request changes nothing', async () => {
    let before = await seededSnapshot(target);
    for (const route of routeTable(target.app)) {
      await fc.assert(
        fc.asyncProperty(hostileRequest(route, target.sample), async (req) => {
          ({ after: before } = await sendAndCheck(target, server.port, withCredentials(target, route, req), before));
        }),
        { numRuns: runsPerRoute, seed: options.seed },
      );
    }
    expect((await sendRaw(server.port, { method: 'get', url: '/healthz', headers: {} })).status).toBe(200);
  }, timeoutMs);

  /** Sends every request `requestsOf` makes for each route, each must be refused with a 4xx changing nothing. */
  const expectEveryRefused = async (what: string, requestsOf: (target: SweepTarget, route: AnyRoute) => RawRequest[]) => {
    const before = await seededSnapshot(target);
    let checked = 0;
    for (const route of routeTable(target.app)) {
      for (const req of requestsOf(target, route)) {
        const { res } = await sendAndCheck(target, server.port, withCredentials(target, route, req), before);
        if (res.status < 400) throw new Error(`${route.method} ${route.path}: ${what} was accepted (${res.status}): ${req.url.slice(0, 200)} ${String(req.body).slice(0, 200)}`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  };

  it('MongoDB operators, "$" and dotted keys in every query and body field are refused with a 4xx and change nothing', () => expectEveryRefused('operator input', operatorRequests), timeoutMs);

  it('NUL, control characters and unpaired surrogates in every path parameter, query field and body field are refused with a 4xx', () => expectEveryRefused('unstorable text', unstorableRequests), timeoutMs);

  it("amplification: malformed bodies at each route's body limit get an error answer of a few kB on every route that takes a body", async () => {
    const before = await seededSnapshot(target);
    const appLimit = bodyLimitOf(target.app);
    const limitOf = (route: AnyRoute) => (route.request?.bodyLimit ? limitBytes(route.request.bodyLimit) : appLimit);
    let checked = 0;
    for (const route of routeTable(target.app)) {
      const path = fillPath(route, (name) => encode(String(target.sample?.(name) ?? 1)));
      for (const req of bodiesAtTheLimit(route, limitOf(route))) {
        const sent = { ...req, url: path };
        const { res } = await sendAndCheck(target, server.port, withCredentials(target, route, sent), before);
        const bytes = Buffer.byteLength(res.text);
        if (res.status < 400 || bytes > MAX_REJECTION_BYTES) {
          throw new Error(`${route.method} ${route.path}: ${Buffer.byteLength(String(sent.body))} bytes sent got ${res.status} with ${bytes} bytes: ${res.text.slice(0, 300)}`);
        }
        checked++;
      }
    }
    const takingBodies = routeTable(target.app).filter((route) => bodyTypes(route).length > 0);
    expect(checked).toBe(takingBodies.reduce((n, route) => n + BODIES_PER_TYPE * bodyTypes(route).length, 0));
  }, 120_000);
}
