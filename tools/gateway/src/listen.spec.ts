import http, { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gatewayAddresses, listenOn, type GatewayListeners } from './listen';

/** The status of GET / from `host`:`port` on a fresh connection. */
const statusFrom = (host: string, port: number) =>
  new Promise<number>((resolve, reject) => {
    http
      .get({ host, port, path: '/', agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', reject);
  });

describe('where the gateway listens', () => {
  it('on both loopback addresses unless BIND_ADDRESS is set, and on that address alone when it is', () => {
    expect(gatewayAddresses({})).toEqual(['127.0.0.1', '::1']);
    expect(gatewayAddresses({ BIND_ADDRESS: '' })).toEqual(['127.0.0.1', '::1']);
    expect(gatewayAddresses({ BIND_ADDRESS: '0.0.0.0' })).toEqual(['0.0.0.0']);
    expect(() => gatewayAddresses({ BIND_ADDRESS: 'localhost' })).toThrow('BIND_ADDRESS must be an IP address');
  });

  describe('listenOn', () => {
    let server: Server;
    let listening: GatewayListeners | undefined;
    beforeEach(() => {
      server = createServer((_req, res) => res.writeHead(204).end());
    });
    afterEach(() => {
      listening?.close();
      listening = undefined;
    });

    it('serves on each address, one port for all, and stops accepting on all at close', async () => {
      listening = await listenOn(server, 0, ['127.0.0.1', '::1']);
      expect(listening.addresses).toEqual(['127.0.0.1', '::1']);
      expect((server.address() as AddressInfo).address).toBe('127.0.0.1');
      expect(await statusFrom('127.0.0.1', listening.port)).toBe(204);
      expect(await statusFrom('::1', listening.port)).toBe(204);

      listening.close();
      await expect(statusFrom('127.0.0.1', listening.port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      await expect(statusFrom('::1', listening.port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      listening = undefined;
    });

    it('fails, listening nowhere, when an address cannot be had', async () => {
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '::1', resolve));
      const port = (taken.address() as AddressInfo).port;
      await expect(listenOn(server, port, ['127.0.0.1', '::1'])).rejects.toMatchObject({ code: 'EADDRINUSE' });
      expect(server.listening).toBe(false);
      taken.close();
    });
  });
});
