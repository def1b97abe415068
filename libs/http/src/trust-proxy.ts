import { BlockList, isIPv6 } from 'node:net';

// The addresses a proxy in front of the apps has: loopback (the local gateway, a sidecar),
// link-local and private networks (pods, the ingress controller). Same ranges as Express's
// 'loopback, linklocal, uniquelocal'.
const proxyNetworks = new BlockList();
for (const [network, prefix] of [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
] as const) {
  proxyNetworks.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  proxyNetworks.addSubnet(network, prefix, 'ipv6');
}

/**
 * Express's `trust proxy`: exactly one hop, the peer of the socket, and only when it has a proxy's
 * address. `req.ip` is then the last X-Forwarded-For entry (the address the gateway or ingress saw,
 * which both set rather than append) and anything a client wrote before it is ignored; a client
 * that reaches the app directly from a public address gets its socket address whatever it sends.
 * Express calls this with each address from the socket outwards (`hop` 0 is the socket's peer).
 */
export function trustOneProxyHop(address: string, hop: number): boolean {
  return hop === 0 && proxyNetworks.check(address, isIPv6(address) ? 'ipv6' : 'ipv4');
}
