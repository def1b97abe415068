import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

/** Suffixes an article keeps for `domains`: enough for any real host (`a.b.c.example.com.au`). */
const MAX_SUFFIXES = 8;
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/**
 * The host of an article link and its parent domains of two labels or more, which `domains` and
 * `excludeDomains` match: `https://www.abc.net.au/news/1` → `www.abc.net.au`, `abc.net.au`,
 * `net.au`. An address is its own only entry.
 */
export function domainsOf(url: string): string[] {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return [];
  }
  if (!host) return [];
  if (isIP(host) || host.startsWith('[')) return [host];
  const labels = host.split('.');
  const suffixes: string[] = [];
  for (let i = 0; i < labels.length - 1 && suffixes.length < MAX_SUFFIXES; i++) suffixes.push(labels.slice(i).join('.'));
  return suffixes.length ? suffixes : [host];
}

/** A domain as a client may write it (any case, or an internationalised name), as links store it; undefined if it is not a host name. */
export function domainName(text: string): string | undefined {
  const name = text.trim().toLowerCase();
  // domainToASCII would also read a URL's host out of `abc.net.au/news`
  if (!/^[\p{L}\p{N}.-]+$/u.test(name)) return undefined;
  const ascii = domainToASCII(name);
  return HOST_NAME.test(ascii) ? ascii : undefined;
}

/** The host of a URL without a leading `www.`: a publisher's domain when its configuration names none. */
export function siteDomain(url: string): string {
  const host = new URL(url).hostname;
  return host.startsWith('www.') ? host.slice(4) : host;
}
