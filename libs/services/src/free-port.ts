import { readFileSync } from 'node:fs';
import net from 'node:net';

/** Lowest port the kernel hands out on its own (a server on port 0, an outgoing connection's local port). */
export function ephemeralPortsFrom(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768; // not Linux: Linux's default
  }
}

const FIXED_PORTS_FROM = 10_000;

/**
 * Runs `listen` on a random port below the kernel's ephemeral range, drawing again on EADDRINUSE
 * (20 draws). A port from listen(0) may be given to any other socket of the machine as soon as it
 * is closed (another test's server, an outgoing connection's local port); below the range only an
 * explicit bind takes a port, so a collision needs another caller to draw the same one of ~22,000.
 */
export async function listenBelowEphemeral<T>(listen: (port: number) => Promise<T>): Promise<T> {
  const span = Math.max(ephemeralPortsFrom() - FIXED_PORTS_FROM, 1000);
  for (let attempt = 1; ; attempt++) {
    try {
      return await listen(FIXED_PORTS_FROM + Math.floor(Math.random() * span));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 20) throw err;
    }
  }
}

/**
 * A loopback port free right now, for a child process to listen on (tests, the bench and the dev
 * tools; the machine is shared: never assume the default ports). Below the ephemeral range
 * (listenBelowEphemeral): a port from listen(0), once closed here, was seen taken by another test's
 * server before the child bound it, whose /readyz then answered for the child (crm replicas.spec,
 * every test ECONNREFUSED once that server closed).
 */
export function freePort(): Promise<number> {
  return listenBelowEphemeral(
    (port) =>
      new Promise<number>((resolve, reject) => {
        const server = net.createServer();
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => server.close(() => resolve(port)));
      }),
  );
}
