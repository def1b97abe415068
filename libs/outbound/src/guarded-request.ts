import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { rootCertificates } from 'node:tls';
import { checkedLookup, resolveTarget } from './checked-lookup';
import { OutboundError } from './outbound-error';
import { countRefusal, refused, targetOf, vetAddresses, vetScheme, type OutboundPolicy } from './policy';

export interface GuardedRequestOptions {
  policy: OutboundPolicy;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** The whole exchange: every redirect, the headers and the body. */
  timeoutMs: number;
  /** Bytes of the answer read at most; past them reading stops and the body is marked truncated. */
  maxBytes: number;
  /** Redirects followed (each target checked like the first); 0, the default, returns a 3xx answer as it is. */
  maxRedirects?: number;
  /** Ends the request (shutdown): an OutboundError `aborted`. */
  signal?: AbortSignal;
}

export interface GuardedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The answer's first `maxBytes` bytes at most; `truncated` when it had more (reading stopped there). */
  body: { bytes: Buffer; truncated: boolean };
  /** The URL that answered (after redirects). */
  url: string;
  redirects: number;
  durationMs: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers that carry the caller's credentials: never sent on to another origin. */
const CREDENTIALS = ['authorization', 'cookie', 'proxy-authorization'];

/**
 * Sends one request through the outbound guard: https only (plain http only to an allow-listed
 * host, or with the policy's `allowHttp`); the host's every address checked before connecting and
 * again by the socket's own lookup (DNS rebinding between the two is refused), the socket connecting
 * only to an address that was checked; redirects followed by hand, each target checked again and
 * https → http refused; one time limit for everything and a byte limit on the answer. Every failure
 * is an OutboundError with a message safe to show.
 */
export async function guardedRequest(rawUrl: string, options: GuardedRequestOptions): Promise<GuardedResponse> {
  const { policy, timeoutMs, maxBytes, maxRedirects = 0 } = options;
  const started = performance.now();
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let url = parseUrl(rawUrl);
  let method = (options.method ?? 'GET').toUpperCase();
  let body = options.body;
  let headers = { ...options.headers };
  let answered = false;
  try {
    for (let redirects = 0; ; redirects++) {
      const lookup = await vetTarget(policy, url, signal);
      const res = await send(url, { method, headers, body, lookup, signal, ca: policy.ca });
      const location = res.headers.location;
      if (maxRedirects > 0 && REDIRECTS.has(res.statusCode ?? 0) && location) {
        res.destroy();
        if (redirects >= maxRedirects) throw new OutboundError('too_many_redirects', `more than ${maxRedirects} redirects (the last to ${location.slice(0, 200)})`);
        const next = parseUrl(location, url);
        if (url.protocol === 'https:' && next.protocol === 'http:') throw refused(`redirect from https to plain http (${next.href.slice(0, 200)})`, 'redirect_to_http');
        if (res.statusCode === 303 || (method === 'POST' && (res.statusCode === 301 || res.statusCode === 302))) {
          method = 'GET';
          body = undefined;
          headers = withoutHeaders(headers, ['content-type', 'content-length']);
        }
        if (next.origin !== url.origin) headers = withoutHeaders(headers, CREDENTIALS);
        url = next;
        continue;
      }
      answered = true;
      const read = await readBody(res, maxBytes);
      return { status: res.statusCode ?? 0, headers: res.headers, body: read, url: url.href, redirects, durationMs: Math.round(performance.now() - started) };
    }
  } catch (err) {
    const failure = asOutboundError(err, { signal: options.signal, timeout, timeoutMs, answered });
    if (failure.failure === 'refused') countRefusal(policy, failure.rule ?? 'other');
    throw failure;
  }
}

/**
 * What the guard would refuse of `rawUrl` without resolving its name (for a URL given to be called
 * later, such as a webhook's): not an absolute http(s) URL, credentials in it, plain http the policy
 * does not allow, an address literal that is not public and not allow-listed. Undefined when none;
 * the name's addresses are still checked at each request.
 */
export function urlRefusal(policy: OutboundPolicy, rawUrl: string): OutboundError | undefined {
  try {
    const target = targetOf(policy, parseUrl(rawUrl));
    if (target.literal) vetAddresses(policy, target, [target.literal]);
    else vetScheme(policy, target);
    return undefined;
  } catch (err) {
    if (err instanceof OutboundError) return err;
    throw err;
  }
}

/** An absolute http(s) URL without credentials, else an OutboundError. */
function parseUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new OutboundError('bad_url', `not a URL: ${text.slice(0, 200)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundError('bad_url', `not an http(s) URL: ${url.href.slice(0, 200)}`);
  if (url.username || url.password) throw refused(`credentials in the URL of ${url.hostname}`, 'credentials_in_url');
  return url;
}

/** The checks before connecting; answers the socket's lookup, which checks again when it connects. */
async function vetTarget(policy: OutboundPolicy, url: URL, signal: AbortSignal): Promise<LookupFunction> {
  const target = targetOf(policy, url);
  if (target.literal) {
    vetAddresses(policy, target, [target.literal]);
  } else {
    vetScheme(policy, target);
    vetAddresses(policy, target, await untilAborted(resolveTarget(policy, target), signal));
  }
  return checkedLookup(policy, target);
}

interface SendOptions {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  lookup: LookupFunction;
  signal: AbortSignal;
  ca?: string[];
}

function send(url: URL, { method, headers, body, lookup, signal, ca }: SendOptions): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    // agent: false: a connection of its own, made through `lookup` (a pooled socket would skip the check)
    const tls = url.protocol === 'https:' && ca ? { ca: [...rootCertificates, ...ca] } : {};
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, { method, headers, agent: false, lookup, signal, ...tls }, resolve);
    req.on('error', reject);
    req.end(body);
  });
}

async function readBody(res: IncomingMessage, maxBytes: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    if (size + chunk.byteLength > maxBytes) {
      chunks.push(chunk.subarray(0, maxBytes - size));
      res.destroy();
      return { bytes: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(chunk);
    size += chunk.byteLength;
  }
  return { bytes: Buffer.concat(chunks), truncated: false };
}

function withoutHeaders(headers: Record<string, string>, names: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name.toLowerCase())));
}

/** Rejects with the signal's reason once it aborts, whatever `promise` does (a resolver that hangs). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function asOutboundError(err: unknown, ctx: { signal?: AbortSignal; timeout: AbortSignal; timeoutMs: number; answered: boolean }): OutboundError {
  if (ctx.signal?.aborted) return new OutboundError('aborted', 'stopped by the caller');
  if (ctx.timeout.aborted) return new OutboundError('timeout', `no complete answer within ${ctx.timeoutMs} ms`);
  if (err instanceof OutboundError) return err;
  const cause = (err as { cause?: NodeJS.ErrnoException }).cause ?? (err as NodeJS.ErrnoException);
  const reason = cause.code ?? cause.message;
  return new OutboundError('unreachable', ctx.answered ? `connection failed: ${reason}` : `cannot connect: ${reason}`);
}
