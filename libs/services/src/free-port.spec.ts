import net from 'node:net';
import { ephemeralPortsFrom, freePort, listenBelowEphemeral } from './free-port';

const listenOn = (port: number) =>
  new Promise<net.Server>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });

describe('freePort', () => {
  it('gives ports below the range the kernel hands out itself, which a child can then listen on', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, freePort));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(ephemeralPortsFrom());
    }
    const server = await listenOn(ports[0]);
    server.close();
  });

  it('draws again when the drawn port is taken, and gives up after 20 draws', async () => {
    const taken = await listenOn(0);
    const takenPort = (taken.address() as net.AddressInfo).port;
    const drawn: number[] = [];
    const port = await listenBelowEphemeral(async (candidate) => {
      drawn.push(candidate);
      if (drawn.length < 3) return Promise.reject(Object.assign(new Error('in use'), { code: 'EADDRINUSE' }));
      return candidate;
    });
    expect(drawn).toHaveLength(3);
    expect(port).toBe(drawn[2]);
    let tries = 0;
    await expect(
      listenBelowEphemeral(async () => {
        tries++;
        return listenOn(takenPort);
      }),
    ).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect(tries).toBe(20);
    taken.close();
  });
});
