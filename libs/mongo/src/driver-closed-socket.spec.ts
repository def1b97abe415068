import { MongoClient } from 'mongodb';
import { startEmbeddedMongo, type EmbeddedProcess } from './embedded';

// internal driver API, as the behaviour under test is the driver's (patches/mongodb+*.patch)
const { ns } = require('mongodb/lib/utils') as { ns: (namespace: string) => unknown };

interface DriverConnection {
  socket: { destroy(): void };
  command(namespace: unknown, command: object, options: object): Promise<unknown>;
}
interface DriverServer {
  monitor: { connection: DriverConnection | null; s: { state: string }; requestCheck(): void };
}

/**
 * When the server or the network cuts a connection, Node destroys the socket at once but the
 * driver's connection hears of it only from the 'close' event, later. A command written in between
 * used to wait for a 'drain' that never comes: the operation hung for good, and when it was the
 * monitor's heartbeat the server stayed Unknown and the app never reconnected (the outage tests
 * caught it: a database restart left users-api answering 503 until it was restarted).
 */
describe('the database driver (patched): a command on a connection whose socket was just destroyed', () => {
  let server: EmbeddedProcess;
  let client: MongoClient;
  beforeAll(async () => {
    server = await startEmbeddedMongo();
    // poll mode: the monitor keeps one connection and sends `hello` on it every heartbeat
    client = await MongoClient.connect(server.uri, { serverMonitoringMode: 'poll', heartbeatFrequencyMS: 60_000 });
  });
  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  const monitor = () => [...(client as unknown as { topology: { s: { servers: Map<string, DriverServer> } } }).topology.s.servers.values()][0].monitor;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** Waits up to 3 s for the monitor to be between checks, on an open connection when `connected`. */
  async function monitorIdle(connected = false): Promise<boolean> {
    for (let waited = 0; waited < 3_000; waited += 50) {
      const { s, connection } = monitor();
      if (s.state === 'idle' && (!connected || (connection && !(connection as unknown as { closed: boolean }).closed))) return true;
      await sleep(50);
    }
    return false;
  }

  it('fails at once with a network error instead of hanging', async () => {
    const connection = monitor().connection!;
    expect(connection).not.toBeNull();
    connection.socket.destroy(); // what a reset from the server does; 'close' reaches the connection on a later tick
    const outcome = await Promise.race([
      connection.command(ns('admin.$cmd'), { hello: 1 }, {}).then(
        () => 'answered',
        (error: Error) => error.name,
      ),
      new Promise((resolve) => setTimeout(() => resolve('still waiting after 3 s'), 3_000)),
    ]);
    expect(outcome).toBe('MongoNetworkError');
  });

  it("when it is the monitor's heartbeat, the check ends and the monitor goes on checking the server", async () => {
    // a check opens a new monitoring connection (the test above destroyed the last one); checks
    // less than 500 ms apart are postponed, by which time 'close' would have arrived
    await sleep(600);
    monitor().requestCheck();
    expect(await monitorIdle(true)).toBe(true);
    await sleep(600);
    monitor().connection!.socket.destroy();
    monitor().requestCheck(); // the heartbeat goes out on this tick, before 'close'
    expect(monitor().s.state).toBe('monitoring');
    expect(await monitorIdle()).toBe(true);
    await expect(client.db('admin').command({ ping: 1 })).resolves.toMatchObject({ ok: 1 });
  });
});
