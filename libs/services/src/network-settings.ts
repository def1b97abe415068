import { BlockList, isIP } from 'node:net';

/** The address every process listens on (apps and gateway), e.g. `0.0.0.0` in a container. */
export const BIND_ADDRESS_ENV = 'BIND_ADDRESS';
/** Without BIND_ADDRESS, development listens on loopback only: the public development credentials stay on this machine. */
export const LOOPBACK_ADDRESSES = ['127.0.0.1', '::1'] as const;

/** One IP address to listen on, or undefined when none is given (loopback); anything else throws. */
export function parseBindAddress(value: string | undefined): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (!isIP(text)) throw new Error(`must be an IP address (127.0.0.1, 0.0.0.0, ::), got "${text}"`);
  return text;
}

/** BIND_ADDRESS of `env` (see parseBindAddress); a bad value throws naming the variable. */
export function bindAddressOf(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return named(BIND_ADDRESS_ENV, () => parseBindAddress(env[BIND_ADDRESS_ENV]));
}

function named<T>(name: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw new Error(`${name} ${(err as Error).message}`);
  }
}

/** The proxies whose X-Forwarded-For an app believes. */
export const TRUST_PROXY_ENV = 'TRUST_PROXY';

/** Express's named ranges, as proxy-addr defines them. */
const NAMED_NETWORKS: Record<string, Array<[string, number]>> = {
  loopback: [['127.0.0.0', 8], ['::1', 128]],
  linklocal: [['169.254.0.0', 16], ['fe80::', 10]],
  uniquelocal: [['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['fc00::', 7]],
};

/**
 * Whom an app trusts to report the client's address, from TRUST_PROXY:
 * - unset or empty: nobody; the client is the socket's peer, whatever X-Forwarded-For says;
 * - a whole number N (`1`): the N hops nearest the app, whatever their addresses (only where nothing
 *   but the proxy can reach the app: a container network or a cluster with NetworkPolicies);
 * - a comma-separated list of addresses, CIDRs and the names `loopback`, `linklocal`, `uniquelocal`:
 *   each hop from the socket outwards whose address is listed.
 * `trusts(address, hop)` is Express's `trust proxy` function (hop 0 is the socket's peer); the client
 * is the first address it does not trust.
 */
export interface TrustedProxies {
  /** The setting as given, for the start-up log. */
  description: string;
  trusts(address: string, hop: number): boolean;
}

const NOBODY: TrustedProxies = { description: 'none', trusts: () => false };

/** Parses a TRUST_PROXY value (see TrustedProxies); a bad entry throws naming it. */
export function parseTrustedProxies(value: string | undefined): TrustedProxies {
  const text = value?.trim() ?? '';
  if (text === '') return NOBODY;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 10) throw new Error(`must be at most 10 hops (got ${hops})`);
    return hops === 0 ? NOBODY : { description: `${hops} hop${hops === 1 ? '' : 's'}`, trusts: (_address, hop) => hop < hops };
  }
  const networks = new BlockList();
  const entries = text.split(',').map((entry) => entry.trim());
  for (const entry of entries) addTrusted(networks, entry);
  return {
    description: entries.join(', '),
    trusts: (address) => {
      const family = isIP(address);
      // an IPv4 peer of a dual-stack socket (`::ffff:127.0.0.1`) matches the IPv4 ranges
      return family !== 0 && networks.check(address, family === 6 ? 'ipv6' : 'ipv4');
    },
  };
}

function addTrusted(networks: BlockList, entry: string): void {
  const named = Object.hasOwn(NAMED_NETWORKS, entry) ? NAMED_NETWORKS[entry] : undefined;
  if (named) {
    for (const [network, prefix] of named) networks.addSubnet(network, prefix, isIP(network) === 6 ? 'ipv6' : 'ipv4');
    return;
  }
  const [address, prefixText, extra] = entry.split('/');
  const family = isIP(address ?? '');
  const maxPrefix = family === 6 ? 128 : 32;
  const prefix = prefixText === undefined ? maxPrefix : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (family === 0 || extra !== undefined || !(prefix >= 0 && prefix <= maxPrefix)) {
    throw new Error(
      `must be a hop count (1) or a list of addresses, CIDRs (10.0.0.0/8) and ${Object.keys(NAMED_NETWORKS).join(', ')}; "${entry}" is none of these`,
    );
  }
  networks.addSubnet(address, prefix, family === 6 ? 'ipv6' : 'ipv4');
}
