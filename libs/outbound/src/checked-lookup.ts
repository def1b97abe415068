import type { LookupAddress, LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { parseAddress, type IpAddress } from './address-ranges';
import { OutboundError } from './outbound-error';
import { vetAddresses, type OutboundPolicy, type Target } from './policy';

/** Resolves a target's host name with the policy's resolver: every address, parsed; an OutboundError when there is none. */
export async function resolveTarget(policy: OutboundPolicy, target: Target): Promise<IpAddress[]> {
  let found: { address: string }[];
  try {
    found = await policy.resolve(target.host);
  } catch (err) {
    const { code, message } = err as NodeJS.ErrnoException;
    throw new OutboundError('unresolvable', `cannot resolve ${target.host}: ${code ?? message}`);
  }
  const addresses = found.map((entry) => parseAddress(entry.address)).filter((address) => address !== undefined);
  if (!addresses.length) throw new OutboundError('unresolvable', `cannot resolve ${target.host}: no address`);
  return addresses;
}

/**
 * The socket's `lookup`: resolves the name again when the connection is made and checks every
 * address before the socket may use one, so a name that answered a public address to the first
 * check and a private one now (DNS rebinding) is refused. The socket connects only to addresses
 * this function checked.
 */
export function checkedLookup(policy: OutboundPolicy, target: Target): LookupFunction {
  return (_hostname, options: LookupOptions, callback) => {
    resolveTarget(policy, target)
      .then((addresses) => {
        vetAddresses(policy, target, addresses);
        const family = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
        const usable: LookupAddress[] = addresses
          .map((address) => ({ address: address.toString(), family: address.kind() === 'ipv4' ? 4 : 6 }))
          .filter((entry) => !family || entry.family === family);
        if (!usable.length) throw new OutboundError('unresolvable', `cannot resolve ${target.host}: no IPv${family} address`);
        return usable;
      })
      .then(
        (usable) => (options.all ? callback(null, usable) : callback(null, usable[0].address, usable[0].family)),
        (err: NodeJS.ErrnoException) => callback(err, ''),
      );
  };
}
