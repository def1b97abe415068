import { readFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Resolver } from '../src';

/**
 * A certificate for localhost, feeds.test, rebind.test, 127.0.0.1 and ::1, self-signed, valid to 2126, trusted through
 * the policy's `ca`. Its key is a test fixture, public on purpose: it secures nothing.
 */
export const TEST_CA = readFileSync(path.join(__dirname, 'fixtures', 'test-server.crt'), 'utf8');
const TEST_KEY = readFileSync(path.join(__dirname, 'fixtures', 'test-server.key'), 'utf8');

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A server on 127.0.0.1 (http, or https with the test certificate) answering each path with its
 * handler and recording every request it got.
 */
export async function startLocalServer(options: { tls?: boolean } = {}) {
  const handlers = new Map<string, Handler>();
  const seen: SeenRequest[] = [];
  const open = new Set<ServerResponse>();
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      open.add(res);
      res.on('close', () => open.delete(res));
      (handlers.get((req.url ?? '/').split('?')[0]) ?? ((_q, r) => r.writeHead(404).end('no such path')))(req, res);
    });
  };
  const server = options.tls ? https.createServer({ key: TEST_KEY, cert: TEST_CA }, listener) : http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const scheme = options.tls ? 'https' : 'http';
  return {
    port,
    /** The URL of a path on this server, by address or by another host name (that a test resolver maps to 127.0.0.1). */
    url: (urlPath: string, host = '127.0.0.1') => `${scheme}://${host}:${port}${urlPath}`,
    on: (urlPath: string, handler: Handler) => void handlers.set(urlPath, handler),
    seen,
    hits: (urlPath: string) => seen.filter((r) => r.url.split('?')[0] === urlPath).length,
    async close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export type LocalServer = Awaited<ReturnType<typeof startLocalServer>>;

/**
 * A resolver for tests: answers from `table` (a name → its addresses, or a function giving the
 * answer of each successive lookup) and counts the lookups; other names are ENOTFOUND. No test
 * reaches a real resolver.
 */
export function fakeResolver(table: Record<string, string[] | ((call: number) => string[])>) {
  const calls: string[] = [];
  const resolve: Resolver = async (hostname) => {
    calls.push(hostname);
    const entry = table[hostname];
    const answer = typeof entry === 'function' ? entry(calls.filter((name) => name === hostname).length) : entry;
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, calls };
}
