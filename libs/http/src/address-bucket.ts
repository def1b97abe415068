import ipaddr from 'ipaddr.js';

/**
 * The part of a client address that failed attempts are counted by: an IPv4 address as it is (also
 * when written IPv4-mapped, `::ffff:1.2.3.4`), an IPv6 address by its /64 (one subscriber's
 * network: a holder picks any address in it at will), a zone index dropped. Anything else (no
 * address known) is kept as it is, cut to 64 characters.
 */
export function addressBucket(address: string): string {
  const bare = address.split('%')[0];
  if (!ipaddr.isValid(bare)) return address.slice(0, 64);
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts.slice(0, 4).map((part) => part.toString(16)).join(':')}::/64`;
}
