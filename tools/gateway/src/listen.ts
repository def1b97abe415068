import { once } from 'node:events';
import type { Server } from 'node:http';
import net from 'node:net';
import { LOOPBACK_ADDRESSES, bindAddressOf } from '@lib/services';

/**
 * Where the gateway listens: BIND_ADDRESS when set (`0.0.0.0` in a container, or to reach it from
 * the LAN), otherwise both loopback addresses, since `*.localhost` may resolve to either.
 */
export function gatewayAddresses(env: NodeJS.ProcessEnv): string[] {
  const address = bindAddressOf(env);
  return address ? [address] : [...LOOPBACK_ADDRESSES];
}

/** Errors of a listen on ::1 where the machine has no IPv6 loopback. */
const NO_SUCH_ADDRESS = new Set(['EADDRNOTAVAIL', 'EAFNOSUPPORT']);

export interface GatewayListeners {
  /** The port (the one given, or the one picked for 0). */
  port: number;
  /** The addresses listened on. */
  addresses: string[];
  /** Stops accepting on every address (the server's own close waits for in-flight requests). */
  close(): void;
}

/**
 * Listens with `server` on `port` at each address: the first by the server itself, each further one
 * by a plain socket server handing its connections to it (one http.Server listens on one address).
 * With the default loopback pair, a missing IPv6 loopback is skipped; any other failure rejects.
 */
export async function listenOn(server: Server, port: number, addresses: readonly string[], optional: readonly string[] = ['::1']): Promise<GatewayListeners> {
  const [first, ...rest] = addresses;
  server.listen(port, first);
  await once(server, 'listening');
  const chosen = (server.address() as net.AddressInfo).port;
  const extra: net.Server[] = [];
  const listened = [first];
  try {
    for (const address of rest) {
      const listener = net.createServer((socket) => server.emit('connection', socket));
      try {
        listener.listen(chosen, address);
        await once(listener, 'listening');
      } catch (err) {
        if (optional.includes(address) && NO_SUCH_ADDRESS.has((err as NodeJS.ErrnoException).code ?? '')) continue;
        throw err;
      }
      extra.push(listener);
      listened.push(address);
    }
  } catch (err) {
    server.close();
    for (const listener of extra) listener.close();
    throw err;
  }
  return {
    port: chosen,
    addresses: listened,
    close: () => {
      for (const listener of extra) listener.close();
      server.close();
    },
  };
}
