import type { AnyRoute } from '@lib/routing';
import type { Express } from 'express';
import { describeRequest, listenLoopback, sendRaw, type RawRequest, type RawResponse } from './raw-client';
import { formEncode } from './route-shape';
import { insideTests } from '../inside-tests';

/** What the sweeps need from an app's test file. */
export interface SweepTarget {
  /** The app under test (read inside tests only). */
  readonly app: Express;
  /** Headers that pass the route's authentication, so hostile input reaches validation. */
  credentials(route: AnyRoute): Record<string, string>;
  /** Query parameters that also authenticate (a key or token taken as `?access_token=`), when a route needs them. */
  credentialQuery?(route: AnyRoute): Record<string, string>;
  /** Everything stored, to compare before and after a rejected request (see snapshotDatabase). */
  snapshot(): Promise<string>;
  /** An existing value for a path parameter or field of that name (an id, an email), if any. */
  sample?(name: string): string | number | undefined;
  /** Runs before the sweep's requests: store a few records for the samples to point at. */
  seed?(): Promise<void>;
}

/** `url` with `params` appended to its query string. */
export function appendQuery(url: string, params: Record<string, string> = {}): string {
  const query = formEncode(params);
  if (!query) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}

/** The request with the route's valid credentials: its headers (the request's own win) and query parameters. */
export const withCredentials = (target: SweepTarget, route: AnyRoute, req: RawRequest): RawRequest => ({
  ...req,
  url: appendQuery(req.url, target.credentialQuery?.(route)),
  headers: { ...target.credentials(route), ...req.headers },
});

/** The most an error answer may take (docs/RESILIENCE.md, "Bounds"): a few kB whatever the request. */
export const MAX_REJECTION_BYTES = 16 * 1024;

/** Traces, driver and parser internals a client must never see. */
const INTERNALS = /\n\s+at \S|Mongo(Server|Network)?Error|MongooseError|E11000|CastError|SyntaxError|ZodError|node_modules/;

/**
 * Sends a request and checks the answer is not a 5xx and reveals nothing internal; when the
 * request was rejected (4xx), checks nothing stored changed. Returns the snapshot after it.
 */
export async function sendAndCheck(target: SweepTarget, port: number, req: RawRequest, before: string): Promise<{ res: RawResponse; after: string }> {
  const res = await sendRaw(port, req);
  const label = `${describeRequest(req)} → ${res.status} ${res.text.slice(0, 300)}`;
  if (res.status >= 500 || res.status < 200) throw new Error(`server error: ${label}`);
  if (INTERNALS.test(res.text)) throw new Error(`internals in the answer: ${label}`);
  // amplification: a rejected request is answered with a few kB at most, whatever it sent
  if (res.status >= 400 && Buffer.byteLength(res.text) > MAX_REJECTION_BYTES) throw new Error(`a ${Buffer.byteLength(res.text)}-byte error answer: ${label}`);
  const after = await target.snapshot();
  if (res.status >= 400 && after !== before) throw new Error(`a rejected request changed stored data: ${label}`);
  return { res, after };
}

/**
 * The sweep's app listening on a loopback port for the enclosing describe block (started before its
 * tests, closed after them); read `port` inside tests only.
 */
export function useLoopbackServer(target: { readonly app: Express }): { readonly port: number } {
  let server: Awaited<ReturnType<typeof listenLoopback>> | undefined;
  beforeAll(async () => {
    server = await listenLoopback(target.app);
  });
  afterAll(() => server?.close());
  return {
    get port() {
      return insideTests(server, 'the sweep server').port;
    },
  };
}

/** Seeds the target's records and returns the snapshot that rejected requests must leave unchanged. */
export async function seededSnapshot(target: SweepTarget): Promise<string> {
  await target.seed?.();
  return target.snapshot();
}
