// Jest setup file: the news-api tests never reach the network. Sockets may connect only to the
// loopback interface (the feed fixture server, the embedded database) or to the test database's
// own host when MONGO_URL points elsewhere, and only those names are looked up (the outbound guard
// resolves a feed's host before connecting); anything else fails at once with a clear error.
import dns from 'node:dns';
import net from 'node:net';

const MARK = Symbol.for('news-api.network-blocked');
const proto = net.Socket.prototype as net.Socket & { [MARK]?: boolean };

function databaseHosts(): string[] {
  const url = process.env.TEST_MONGO_URL ?? process.env.MONGO_URL ?? '';
  const hosts = /^mongodb(?:\+srv)?:\/\/(?:[^@/]*@)?([^/?]+)/.exec(url)?.[1] ?? '';
  return hosts
    .split(',')
    .map((h) => h.replace(/:\d+$/, '').replace(/^\[|\]$/g, ''))
    .filter(Boolean);
}

const allowed = new Set(['localhost', '127.0.0.1', '::1', '::ffff:127.0.0.1', ...databaseHosts()]);

export const isAllowedHost = (host: string | undefined) => host === undefined || allowed.has(host) || /^127\./.test(host);

if (!proto[MARK]) {
  const connect = proto.connect;
  proto.connect = function (this: net.Socket, ...args: unknown[]) {
    // net.connect passes its normalized [options, callback] array as the first argument
    const first = Array.isArray(args[0]) ? args[0][0] : args[0];
    const options = typeof first === 'object' && first !== null ? (first as { host?: string; path?: string }) : undefined;
    const host = options ? options.host : typeof args[1] === 'string' ? args[1] : undefined;
    const isUnixSocket = options?.path !== undefined || (typeof first === 'string' && !/^\d+$/.test(first));
    if (!isUnixSocket && !isAllowedHost(host)) {
      process.nextTick(() => this.destroy(new Error(`network access blocked in tests: ${host}`)));
      return this;
    }
    return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof proto.connect;
  proto[MARK] = true;
}

const DNS_MARK = Symbol.for('news-api.dns-blocked');
const dnsState = dns as typeof dns & { [DNS_MARK]?: boolean };
const blockedLookup = (hostname: string) => new Error(`network access blocked in tests: ${hostname}`);

// an address is no lookup on the network (a server listening on 0.0.0.0 looks it up)
if (!dnsState[DNS_MARK]) {
  const lookup = dns.lookup;
  dns.lookup = function (hostname: string, ...rest: unknown[]) {
    if (isAllowedHost(hostname) || net.isIP(hostname)) return (lookup as (...a: unknown[]) => void).call(dns, hostname, ...rest);
    const callback = rest.at(-1) as (err: Error) => void;
    process.nextTick(() => callback(blockedLookup(hostname)));
  } as typeof dns.lookup;
  const lookupPromise = dns.promises.lookup;
  dns.promises.lookup = async function (hostname: string, ...rest: unknown[]) {
    if (isAllowedHost(hostname) || net.isIP(hostname)) return (lookupPromise as (...a: unknown[]) => Promise<unknown>).call(dns.promises, hostname, ...rest);
    throw blockedLookup(hostname);
  } as typeof dns.promises.lookup;
  dnsState[DNS_MARK] = true;
}
