import { errorHandler } from '@lib/errors';
import express from 'express';
import { listenLoopback, sendRaw } from '@lib/testing';
import { hasHeavyBody, heavyRequestGate } from './heavy-request-gate';
import http from 'node:http';
import net from 'node:net';

/** An app whose /slow requests are heavy and wait until released. */
function gatedApp(options: { concurrent: number; queue: number; waitMs: number }) {
  const gate = heavyRequestGate(options);
  const pending: Array<() => void> = [];
  let served = 0;
  const app = express();
  app.get('/slow', gate.admit(() => true), (_req, res) => {
    served++;
    pending.push(() => res.json({ ok: true }));
  });
  app.post('/body', gate.admit(hasHeavyBody), express.text({ limit: '1mb' }), (req, res) => res.json({ length: String(req.body).length }));
  app.get('/light', gate.admit(() => false), (_req, res) => res.json({ ok: true }));
  app.use(errorHandler({ format: (e) => ({ code: e.code }) }));
  return { app, gate, pending, served: () => served };
}

const until = async (check: () => boolean) => {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('heavyRequestGate', () => {
  it('serves at most `concurrent` at once, queues `queue` more, refuses the rest with 503 and Retry-After, and lets light requests through', async () => {
    const { app, gate, pending, served } = gatedApp({ concurrent: 2, queue: 3, waitMs: 30_000 });
    const server = await listenLoopback(app);
    const agent = new http.Agent({ keepAlive: false, maxSockets: 20 });
    try {
      const answers = Array.from({ length: 7 }, () => sendRaw(server.port, { method: 'get', url: '/slow', headers: {} }, agent));
      await until(() => gate.stats().running === 2 && gate.stats().waiting === 3);
      expect(served()).toBe(2);
      expect((await sendRaw(server.port, { method: 'get', url: '/light', headers: {} }, agent)).status).toBe(200);
      // two over the queue were refused at once
      await until(() => pending.length === 2);
      while (served() < 5 || pending.length) {
        await until(() => pending.length > 0);
        pending.shift()!();
      }
      const results = await Promise.all(answers);
      expect(results.filter((r) => r.status === 200)).toHaveLength(5);
      const refused = results.filter((r) => r.status === 503);
      expect(refused).toHaveLength(2);
      expect(refused[0].headers['retry-after']).toBe('1');
      expect(JSON.parse(refused[0].text)).toEqual({ code: 'overloaded' });
      expect(gate.stats()).toEqual({ running: 0, waiting: 0 });
    } finally {
      agent.destroy();
      await server.close();
    }
  });

  it('a request waiting longer than waitMs is refused; small bodies are not gated, large ones are', async () => {
    const { app, gate, pending } = gatedApp({ concurrent: 1, queue: 5, waitMs: 100 });
    const server = await listenLoopback(app);
    const agent = new http.Agent({ keepAlive: false, maxSockets: 20 });
    try {
      const first = sendRaw(server.port, { method: 'get', url: '/slow', headers: {} }, agent);
      await until(() => gate.stats().running === 1);
      const late = await sendRaw(server.port, { method: 'get', url: '/slow', headers: {} }, agent);
      expect(late.status).toBe(503);
      const small = await sendRaw(server.port, { method: 'post', url: '/body', headers: { 'Content-Type': 'text/plain' }, body: 'x'.repeat(1000) }, agent);
      expect(small.status).toBe(200);
      const large = await sendRaw(server.port, { method: 'post', url: '/body', headers: { 'Content-Type': 'text/plain' }, body: 'x'.repeat(100_000) }, agent);
      expect(large.status).toBe(503);
      pending.shift()!();
      expect((await first).status).toBe(200);
      const after = await sendRaw(server.port, { method: 'post', url: '/body', headers: { 'Content-Type': 'text/plain' }, body: 'x'.repeat(100_000) }, agent);
      expect(JSON.parse(after.text)).toEqual({ length: 100_000 });
      expect(gate.stats()).toEqual({ running: 0, waiting: 0 });
    } finally {
      agent.destroy();
      await server.close();
    }
  });

  it('a client gone before admission (during an earlier async step such as authentication) holds no place', async () => {
    const gate = heavyRequestGate({ concurrent: 1, queue: 5, waitMs: 30_000 });
    let authenticating = 0;
    const app = express();
    const slowAuth: express.RequestHandler = (_req, _res, next) => {
      authenticating++;
      setTimeout(next, 300);
    };
    app.get('/slow', slowAuth, gate.admit(() => true), (_req, res) => res.json({ ok: true }));
    const server = await listenLoopback(app);
    try {
      for (let i = 0; i < 3; i++) {
        const socket = net.connect(server.port, '127.0.0.1');
        await new Promise((resolve) => socket.once('connect', resolve));
        socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
        await until(() => authenticating === i + 1);
        socket.destroy();
      }
      await new Promise((resolve) => setTimeout(resolve, 500)); // every authentication has finished
      expect(gate.stats()).toEqual({ running: 0, waiting: 0 });
      expect((await sendRaw(server.port, { method: 'get', url: '/slow', headers: {} })).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('releases each place when its answer is done on a kept-alive connection, and when the client goes away mid-answer', async () => {
    const { app, gate, pending } = gatedApp({ concurrent: 1, queue: 0, waitMs: 30_000 });
    const server = await listenLoopback(app);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let i = 0; i < 5; i++) {
        const answer = sendRaw(server.port, { method: 'get', url: '/slow', headers: {} }, agent);
        await until(() => pending.length === 1);
        pending.shift()!();
        expect((await answer).status).toBe(200);
        await until(() => gate.stats().running === 0);
      }
      const socket = net.connect(server.port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
      await until(() => pending.length === 1);
      expect(gate.stats()).toEqual({ running: 1, waiting: 0 });
      socket.destroy();
      await until(() => gate.stats().running === 0);
      pending.shift()!(); // the handler answers a gone client: nothing is released twice
      expect(gate.stats()).toEqual({ running: 0, waiting: 0 });
      const last = sendRaw(server.port, { method: 'get', url: '/slow', headers: {} }, agent);
      await until(() => pending.length === 1);
      expect(gate.stats()).toEqual({ running: 1, waiting: 0 });
      pending.shift()!();
      expect((await last).status).toBe(200);
      await until(() => gate.stats().running === 0);
    } finally {
      agent.destroy();
      await server.close();
    }
  });
});
