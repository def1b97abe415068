import net from 'node:net';
import { startEmbeddedMongo, type EmbeddedProcess } from '@lib/mongo';
import { listenBelowEphemeral } from '@lib/services';

export interface FaultyDatabase {
  /** Where apps connect: a fixed loopback port that stays the same across stop and start. */
  readonly url: string;
  readonly port: number;
  /** The database goes away: the port refuses connections and every open connection is cut. */
  stop(): Promise<void>;
  /** The database is back on the same port, with everything it stored before. */
  start(): Promise<void>;
  /**
   * The database stalls: its process is stopped (SIGSTOP), so connections stay open and new ones
   * are even accepted by the kernel, but nothing is answered (a hung server or a black-holed
   * network, which no "connection refused" reveals).
   */
  stall(): Promise<void>;
  /** The stalled process continues (SIGCONT) and answers what it was sent meanwhile. */
  resume(): Promise<void>;
  /** Stops the server for good. */
  close(): Promise<void>;
}

/**
 * A dedicated embedded database for fault tests, reached through a fixed loopback port that can be
 * stopped and restarted. The embedded server keeps data only in memory, so stopping its process
 * would also erase every acknowledged write and leave nothing to check; instead the port in front
 * of it goes down and comes back, which is what an app sees when a real mongod stops and restarts
 * (connection refused, open connections reset), while the data survives as it would on disk.
 */
export async function startFaultyDatabase(): Promise<FaultyDatabase> {
  const server: EmbeddedProcess = await startEmbeddedMongo();
  const backend = new URL(server.uri);
  const sockets = new Set<net.Socket>();
  let listener: net.Server | undefined;

  const relay = (client: net.Socket) => {
    const upstream = net.connect(Number(backend.port), backend.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  };

  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const next = net.createServer(relay);
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => {
        listener = next;
        resolve((next.address() as net.AddressInfo).port);
      });
    });

  // below the ephemeral range: the port must be free again whenever the database comes back
  const port = await listenBelowEphemeral(listen);
  let stalled = false;
  const signal = async (name: 'SIGSTOP' | 'SIGCONT') => {
    process.kill(server.pid, name);
    stalled = name === 'SIGSTOP';
  };
  const stop = async () => {
    const current = listener;
    listener = undefined;
    for (const socket of sockets) socket.destroy();
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
  };
  return {
    url: `mongodb://127.0.0.1:${port}/`,
    port,
    stop,
    start: async () => {
      if (!listener) await listen(port);
    },
    stall: () => signal('SIGSTOP'),
    resume: () => signal('SIGCONT'),
    close: async () => {
      if (stalled) await signal('SIGCONT');
      await stop();
      await server.stop();
    },
  };
}

