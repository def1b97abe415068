import net from 'node:net';
import { mountRoutes } from '@lib/routing';
import express, { type Express } from 'express';
import pino from 'pino';
import request from 'supertest';
import { getOnFreshConnection, SHUTDOWN_SIGNALS, useSignalListenerCleanup } from '@lib/testing';
import { createLifecycle, type Lifecycle } from './lifecycle';
import { healthRoutes } from './health';
import { PROXY_KEEPALIVE_MS, serve, type RunningServer } from './serve';

const logger = pino({ level: 'silent' });

const get = getOnFreshConnection;

/** An app with a slow route that reports when it has started, and a route that never answers. */
function slowApp(lifecycle: Lifecycle) {
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const app: Express = express();
  const router = express.Router();
  mountRoutes(router, healthRoutes(async () => true, lifecycle));
  app.use(router);
  app.get('/slow', async (_req, res) => {
    markStarted();
    await new Promise((r) => setTimeout(r, 300));
    res.json({ finished: true });
  });
  app.get('/hang', () => {
    markStarted();
  });
  return { app, started };
}

describe('serve', () => {
  let running: RunningServer | undefined;
  // serve() registers once-listeners for signals; take ours off again
  const signalListeners = useSignalListenerCleanup(async () => {
    await running?.shutdown();
    running = undefined;
  });

  it('listens on the given (ephemeral) port and serves the app', async () => {
    const lifecycle = createLifecycle();
    running = await serve(slowApp(lifecycle).app, { port: 0, host: '127.0.0.1', logger, lifecycle });
    expect(running.port).toBeGreaterThan(0);
    expect(running.server.listening).toBe(true);
    const res = await get(running.port, '/healthz');
    expect(res).toEqual({ status: 200, body: '{"status":"ok"}' });
  });

  it('registers one SIGTERM and one SIGINT listener', async () => {
    const lifecycle = createLifecycle();
    running = await serve(slowApp(lifecycle).app, { port: 0, host: '127.0.0.1', logger, lifecycle });
    for (const s of SHUTDOWN_SIGNALS) expect(process.listenerCount(s)).toBe(signalListeners.listenersBefore(s) + 1);
  });

  it('finishes an in-flight request, refuses new connections, then runs onClose once', async () => {
    const lifecycle = createLifecycle();
    const { app, started } = slowApp(lifecycle);
    const onClose = jest.fn(async () => undefined);
    running = await serve(app, { port: 0, host: '127.0.0.1', logger, lifecycle, onClose });
    const { port } = running;

    const inFlight = get(port, '/slow');
    await started;
    const startedAt = Date.now();
    const shutdown = running.shutdown();
    expect(lifecycle.shuttingDown).toBe(true);
    expect(running.shutdown()).toBe(shutdown); // a second call joins the first

    // readiness turns 503 as soon as shutdown starts (asked through the app, the server no longer accepts)
    const readyz = await request(app).get('/readyz');
    expect(readyz.status).toBe(503);
    expect(readyz.body).toEqual({ status: 'shutting_down' });

    await expect(get(port, '/healthz')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(onClose).not.toHaveBeenCalled();

    await expect(inFlight).resolves.toEqual({ status: 200, body: '{"finished":true}' });
    await shutdown;
    expect(Date.now() - startedAt).toBeLessThan(3_000);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(running.server.listening).toBe(false);

    await running.shutdown();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('with a readiness delay, answers /readyz 503 while still serving, and only then closes the port', async () => {
    const lifecycle = createLifecycle();
    const { app } = slowApp(lifecycle);
    // the delay leaves room for a /readyz and a 300 ms /slow on a busy machine
    running = await serve(app, { port: 0, host: '127.0.0.1', logger, lifecycle, readinessDelayMs: 3_000 });
    const { port } = running;
    const startedAt = Date.now();
    const shutdown = running.shutdown();

    // new connections are still accepted during the delay, and told the app is not ready
    expect(await get(port, '/readyz')).toEqual({ status: 503, body: '{"status":"shutting_down"}' });
    expect(await get(port, '/slow')).toEqual({ status: 200, body: '{"finished":true}' });
    expect(running.server.listening).toBe(true);

    await shutdown;
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(2_990);
    await expect(get(port, '/healthz')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('closes keep-alive connections as soon as their answer is out, not after the keep-alive time', async () => {
    const lifecycle = createLifecycle();
    const { app, started } = slowApp(lifecycle);
    running = await serve(app, { port: 0, host: '127.0.0.1', logger, lifecycle, drainTimeoutMs: 20_000 });
    /** A raw HTTP/1.1 (keep-alive) connection that sends one request and records what it got and when it closed. */
    const connection = (path: string) => {
      const socket = net.connect(running!.port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`));
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      return { closed, received: () => received };
    };
    const idle = connection('/healthz');
    const inFlight = connection('/slow');
    await started;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(idle.received()).toMatch(/^HTTP\/1\.1 200[\s\S]*Connection: keep-alive/i);

    const startedAt = Date.now();
    await running.shutdown();
    await Promise.all([idle.closed, inFlight.closed]);
    expect(inFlight.received()).toMatch(/^HTTP\/1\.1 200[\s\S]*\{"finished":true\}$/);
    // neither the drain timeout (20 s) nor the keep-alive time (65 s) was waited for
    expect(Date.now() - startedAt).toBeLessThan(5_000);
  });

  it('cuts connections still open after the drain timeout', async () => {
    const lifecycle = createLifecycle();
    const { app, started } = slowApp(lifecycle);
    const onClose = jest.fn(async () => undefined);
    running = await serve(app, { port: 0, host: '127.0.0.1', logger, lifecycle, onClose, drainTimeoutMs: 150 });

    const hanging = get(running.port, '/hang');
    await started;
    const startedAt = Date.now();
    await running.shutdown();
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(100);
    expect(Date.now() - startedAt).toBeLessThan(2_000);
    await expect(hanging).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('fails to start when the port is taken', async () => {
    const lifecycle = createLifecycle();
    running = await serve(slowApp(lifecycle).app, { port: 0, host: '127.0.0.1', logger, lifecycle });
    await expect(
      serve(slowApp(createLifecycle()).app, { port: running.port, host: '127.0.0.1', logger, lifecycle: createLifecycle() }),
    ).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });

  describe('slow clients', () => {
    /** Opens a raw connection, sends `partial` and never finishes; resolves with what the server answered and when it closed. */
    function trickle(port: number, partial: string): Promise<{ answer: string; closedAfterMs: number }> {
      return new Promise((resolve, reject) => {
        const started = Date.now();
        const socket = net.connect(port, '127.0.0.1', () => socket.write(partial));
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString()));
        socket.on('close', () => resolve({ answer, closedAfterMs: Date.now() - started }));
        socket.on('error', reject);
      });
    }

    it('the production defaults keep idle connections longer than the ingress does: 65 s, and 66 s for headers and the request', async () => {
      const lifecycle = createLifecycle();
      running = await serve(slowApp(lifecycle).app, { port: 0, host: '127.0.0.1', logger, lifecycle });
      const { headersTimeout, requestTimeout, keepAliveTimeout } = running.server;
      expect([headersTimeout, requestTimeout, keepAliveTimeout]).toEqual([66_000, 66_000, 65_000]);
      expect(keepAliveTimeout).toBeGreaterThan(PROXY_KEEPALIVE_MS);
      expect(headersTimeout).toBeGreaterThan(keepAliveTimeout);
      expect(requestTimeout).toBeGreaterThanOrEqual(headersTimeout);
    });

    it('keeps an idle connection past the header and request timeouts, until the keep-alive time', async () => {
      const lifecycle = createLifecycle();
      const timeouts = { headersMs: 300, requestMs: 400, keepAliveMs: 1_500 };
      running = await serve(slowApp(lifecycle).app, { port: 0, host: '127.0.0.1', logger, lifecycle, timeouts });
      const socket = net.connect(running.port, '127.0.0.1');
      let answers = '';
      socket.on('data', (chunk) => (answers += chunk.toString()));
      const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
      const request = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n';
      socket.write(request);
      await new Promise((resolve) => setTimeout(resolve, 900)); // idle for longer than headers and request allow
      const lastSent = Date.now();
      socket.write(request);
      const closedAt = await closed;
      expect(answers.match(/HTTP\/1\.1 200/g)).toHaveLength(2);
      expect(closedAt - lastSent).toBeGreaterThanOrEqual(1_200);
    });

    it('a client that never finishes its headers gets 408 and is disconnected (slowloris)', async () => {
      const lifecycle = createLifecycle();
      running = await serve(slowApp(lifecycle).app, { port: 0, host: '127.0.0.1', logger, lifecycle, timeouts: { headersMs: 300, requestMs: 600 } });
      const { answer, closedAfterMs } = await trickle(running.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ');
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
      expect(closedAfterMs).toBeGreaterThanOrEqual(250);
      expect(closedAfterMs).toBeLessThan(3_000);
    });

    it('a client that never finishes its body gets 408 and is disconnected', async () => {
      const lifecycle = createLifecycle();
      running = await serve(slowApp(lifecycle).app, { port: 0, host: '127.0.0.1', logger, lifecycle, timeouts: { headersMs: 300, requestMs: 600 } });
      const { answer, closedAfterMs } = await trickle(running.port, 'POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc');
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
      expect(closedAfterMs).toBeLessThan(3_000);
    });
  });
});
