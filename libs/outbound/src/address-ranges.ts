import ipaddr from 'ipaddr.js';

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/** Why an address is not a public one; the words appear in refusal messages ("resolves to a private address"). */
export type NonPublicRange =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cloud metadata'
  | 'shared (carrier-grade NAT)'
  | 'unique-local'
  | 'multicast'
  | 'unspecified'
  | 'broadcast'
  | 'reserved';

/** Instance metadata services: link-local or private already, named so that a refusal says what was aimed at. */
const METADATA = ['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254'].map((text) => ipaddr.parse(text).toNormalizedString());

/** NAT64's well-known prefix (RFC 6052): 64:ff9b::a.b.c.d reaches the IPv4 address a.b.c.d. */
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');
/** IPv6 global unicast (RFC 4291): everything outside it (IPv4-compatible ::a.b.c.d, site-local, …) is not public. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/** Parses an address as the resolver or a URL gives it (`::1`, `[::1]`, `fe80::1%eth0`); undefined when it is none. */
export function parseAddress(text: string): IpAddress | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  return ipaddr.isValid(bare) ? ipaddr.parse(bare) : undefined;
}

/**
 * The address the kernel would reach: an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, also
 * written `::ffff:7f00:1`) and a NAT64 address with an embedded IPv4 (`64:ff9b::10.0.0.1`) are
 * their IPv4 address, so the IPv4 rules apply to them.
 */
export function effectiveAddress(address: IpAddress): IpAddress {
  if (address.kind() === 'ipv4') return address;
  const v6 = address as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  if (v6.match(NAT64)) return ipaddr.fromByteArray(v6.toByteArray().slice(12));
  return v6;
}

/**
 * The non-public range an address is in, or undefined for a public one. Only what ipaddr.js calls
 * `unicast` is public (for IPv6 also inside 2000::/3): loopback, private (10/8, 172.16/12,
 * 192.168/16), link-local (169.254/16, fe80::/10), carrier-grade NAT (100.64/10), unique-local
 * (fc00::/7), multicast, 0.0.0.0/8, ::, broadcast, documentation, benchmarking, 240/4, 6to4, Teredo
 * and every other special-purpose block are not. IPv4-mapped and NAT64 addresses are judged by
 * their IPv4 address.
 */
export function nonPublicRange(address: IpAddress): NonPublicRange | undefined {
  const effective = effectiveAddress(address);
  if (METADATA.includes(effective.toNormalizedString())) return 'cloud metadata';
  if (effective.kind() === 'ipv4') {
    switch ((effective as ipaddr.IPv4).range()) {
      case 'unicast':
        return undefined;
      case 'loopback':
        return 'loopback';
      case 'private':
        return 'private';
      case 'linkLocal':
        return 'link-local';
      case 'carrierGradeNat':
        return 'shared (carrier-grade NAT)';
      case 'multicast':
        return 'multicast';
      case 'unspecified':
        return 'unspecified';
      case 'broadcast':
        return 'broadcast';
      default:
        return 'reserved';
    }
  }
  const v6 = effective as ipaddr.IPv6;
  switch (v6.range()) {
    case 'unicast':
      return v6.match(GLOBAL_UNICAST) ? undefined : 'reserved';
    case 'loopback':
      return 'loopback';
    case 'linkLocal':
      return 'link-local';
    case 'uniqueLocal':
      return 'unique-local';
    case 'multicast':
      return 'multicast';
    case 'unspecified':
      return 'unspecified';
    default:
      return 'reserved';
  }
}
