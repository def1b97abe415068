import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitForHttp } from './wait-ready';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

async function serve(handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/readyz`;
}

async function freePortUrl(): Promise<string> {
  const url = await serve(() => undefined);
  const server = servers.pop()!;
  await new Promise((resolve) => server.close(resolve));
  return url;
}

describe('waitForHttp', () => {
  it('polls until the server answers 200', async () => {
    let calls = 0;
    const url = await serve((_req, res) => {
      calls += 1;
      res.writeHead(calls < 3 ? 503 : 200).end();
    });
    await waitForHttp(url, { timeoutMs: 5_000, intervalMs: 10 });
    expect(calls).toBe(3);
  });

  it('waits for a server that starts listening later', async () => {
    const url = await freePortUrl();
    const port = Number(new URL(url).port);
    const late = createServer((_req, res) => res.end('ok'));
    servers.push(late);
    setTimeout(() => late.listen(port, '127.0.0.1'), 150);
    await waitForHttp(url, { timeoutMs: 5_000, intervalMs: 20 });
    expect(late.listening).toBe(true);
  });

  it('gives up after the timeout, naming the last status', async () => {
    const url = await serve((_req, res) => res.writeHead(503).end());
    const started = Date.now();
    await expect(waitForHttp(url, { timeoutMs: 300, intervalMs: 20 })).rejects.toThrow(`${url} was not ready within 300 ms (last answer: HTTP 503)`);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('names the connection error when nothing listens', async () => {
    const url = await freePortUrl();
    await expect(waitForHttp(url, { timeoutMs: 200, intervalMs: 20 })).rejects.toThrow('(last answer: ECONNREFUSED)');
  });

  it('does not hang on a server that never answers', async () => {
    const url = await serve(() => undefined);
    const started = Date.now();
    await expect(waitForHttp(url, { timeoutMs: 300 })).rejects.toThrow('no answer within');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('accepts any status when told to', async () => {
    const url = await serve((_req, res) => res.writeHead(421).end());
    await expect(waitForHttp(url, { timeoutMs: 1_000, isReady: () => true })).resolves.toBeUndefined();
  });

  it('stops waiting when aborted', async () => {
    const url = await serve((_req, res) => res.writeHead(503).end());
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    await expect(waitForHttp(url, { timeoutMs: 10_000, intervalMs: 20, signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
