import { getOnFreshConnection, startFaultyDatabase, useSignalListenerCleanup, type FaultyDatabase } from '@lib/testing';
import { defineRoute } from '@lib/routing';
import { parseTrustedProxies } from '@lib/services';
import { z } from '@lib/validation';
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import express from 'express';
import { Schema } from 'mongoose';
import { buildServiceApp } from './build-app';
import { runService, startOrExit, type RunningService, type RunServiceOptions, type ServiceDeps } from './run-service';

const get = getOnFreshConnection;

/** runService under this spec's name on an ephemeral port, logging nothing, on the test database `dbName`. */
const runOnTestDatabase = (dbName: string, options: Omit<RunServiceOptions, 'name' | 'port' | 'logLevel' | 'database'>) =>
  runService({ name: 'run-service-spec', port: 0, logLevel: 'silent', database: { url: process.env.TEST_MONGO_URL, dbName }, ...options });

describe('runService', () => {
  let running: RunningService | undefined;
  useSignalListenerCleanup(() => running?.shutdown());

  it('connects, builds the app, creates indexes, listens, and closes the database on shutdown', async () => {
    let deps: ServiceDeps | undefined;
    running = await runOnTestDatabase('run_service_spec', {
      createApp(given) {
        deps = given;
        const schema = new Schema({ code: String });
        schema.index({ code: 1 }, { unique: true });
        given.connection.model('Widget', schema, 'widgets');
        const app = express();
        app.get('/ping', (_req, res) => {
          res.json({ shuttingDown: given.lifecycle.shuttingDown });
        });
        return app;
      },
    });

    expect(await running.started).toBe(true);
    expect(deps?.connection.name).toBe('run_service_spec');
    expect(deps?.logger.level).toBe('silent');
    const indexes = await deps!.connection.collection('widgets').indexes();
    expect(indexes.map((i) => i.name)).toContain('code_1');

    expect(await get(running.port, '/ping')).toEqual({ status: 200, body: '{"shuttingDown":false}' });

    await running.shutdown();
    expect(deps?.lifecycle.shuttingDown).toBe(true);
    expect(deps?.connection.readyState).toBe(0);
  });

  it('runs beforeClose on shutdown while the database is still open', async () => {
    let deps: ServiceDeps | undefined;
    let stateAtBeforeClose: number | undefined;
    running = await runOnTestDatabase('run_service_spec_close', {
      createApp(given) {
        deps = given;
        return express();
      },
      beforeClose: async () => {
        stateAtBeforeClose = deps?.connection.readyState;
      },
    });
    await running.started;
    await running.shutdown();
    expect(stateAtBeforeClose).toBe(1);
    expect(deps?.connection.readyState).toBe(0);
  });
});

describe('runService: where it listens and whom it trusts', () => {
  let running: RunningService | undefined;
  useSignalListenerCleanup(() => running?.shutdown());
  afterEach(async () => {
    await running?.shutdown();
    running = undefined;
  });

  /** An app answering the client address it sees. */
  const ipApp = () => {
    const app = express();
    app.get('/ip', (req, res) => {
      res.json({ ip: req.ip });
    });
    return app;
  };
  const ipSeen = (host: string, port: number, forwardedFor: string) =>
    new Promise<string>((resolve, reject) => {
      http
        .get({ host, port, path: '/ip', headers: { 'X-Forwarded-For': forwardedFor }, agent: false }, (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve(JSON.parse(body).ip));
        })
        .on('error', reject);
    });

  it('listens on 127.0.0.1 unless told, and believes no X-Forwarded-For', async () => {
    running = await runOnTestDatabase('run_service_spec_bind', { createApp: ipApp });
    expect((running.server.address() as AddressInfo).address).toBe('127.0.0.1');
    expect(await ipSeen('127.0.0.1', running.port, '203.0.113.9')).toBe('127.0.0.1');
  });

  it('listens on the address it is given, and believes X-Forwarded-For from the trusted proxies only', async () => {
    running = await runOnTestDatabase('run_service_spec_bind', { createApp: ipApp, host: '::1', trustedProxies: parseTrustedProxies('::1') });
    expect((running.server.address() as AddressInfo).address).toBe('::1');
    expect(await ipSeen('::1', running.port, '203.0.113.9')).toBe('203.0.113.9');
    await running.shutdown();

    running = await runOnTestDatabase('run_service_spec_bind', { createApp: ipApp, trustedProxies: parseTrustedProxies('10.0.0.0/8') });
    expect(await ipSeen('127.0.0.1', running.port, '203.0.113.9')).toBe('127.0.0.1');
  });
});

describe('runService with the database unreachable at start', () => {
  let db: FaultyDatabase;
  let running: RunningService | undefined;
  useSignalListenerCleanup(() => running?.shutdown());

  beforeAll(async () => {
    db = await startFaultyDatabase();
  }, 30_000);

  afterAll(() => db?.close());

  /** A service app with one route that reads the database, and a prepare step that writes to it. */
  function start(dbName: string, prepared: string[], given: Partial<ServiceDeps> = {}) {
    return runService({
      name: 'run-service-spec',
      port: 0,
      logLevel: 'silent',
      database: { url: db.url, dbName },
      startUpRetry: { firstMs: 100, maxMs: 400 },
      createApp({ connection, logger, lifecycle }) {
        given.connection = connection;
        const schema = new Schema({ code: String });
        schema.index({ code: 1 }, { unique: true });
        const Widget = connection.model('Widget', schema, 'widgets');
        const route = defineRoute({
          method: 'get',
          path: '/widgets',
          auth: 'public',
          summary: 'Widgets',
          responses: { 200: { description: 'Widgets', schema: z.array(z.string()) } },
          handler: async () => ({ status: 200, body: (await Widget.find({}).lean()).map((w) => String(w.code)) }),
        });
        const isReady = async () => connection.readyState === 1;
        return buildServiceApp({ logger, routes: [route], openapi: { title: 'W', version: '1' }, errorFormat: (e) => ({ oops: e.code }), isReady, lifecycle });
      },
      prepare: async ({ connection }) => {
        await connection.model('Widget').create({ code: `bootstrap-${prepared.length}` });
        prepared.push('done');
      },
    });
  }

  it('keeps serving /healthz, answers 503 on /readyz and every route, and starts by itself once the database answers: indexes and prepare done once', async () => {
    await db.stop();
    const prepared: string[] = [];
    const deps: Partial<ServiceDeps> = {};
    running = await start('run_service_unreachable', prepared, deps);
    // the port is open at once; nothing is served from a database it has not reached
    await new Promise((r) => setTimeout(r, 2_500)); // longer than one server selection: at least one attempt failed
    expect(await get(running.port, '/healthz')).toEqual({ status: 200, body: '{"status":"ok"}' });
    expect(await get(running.port, '/readyz')).toEqual({ status: 503, body: '{"status":"starting"}' });
    expect(await get(running.port, '/widgets')).toEqual({ status: 503, body: '{"oops":"database_unavailable"}' });
    expect(prepared).toEqual([]);

    await db.start();
    expect(await running.started).toBe(true);
    expect(await get(running.port, '/readyz')).toEqual({ status: 200, body: '{"status":"ready"}' });
    expect(await get(running.port, '/widgets')).toEqual({ status: 200, body: '["bootstrap-0"]' });
    expect(prepared).toEqual(['done']);
    expect((await deps.connection!.collection('widgets').indexes()).map((i) => i.name)).toContain('code_1');
  }, 30_000);

  it('stops trying when shut down before the database was reached', async () => {
    await db.stop();
    running = await start('run_service_never', []);
    await running.shutdown();
    expect(await running.started).toBe(false);
    await db.start();
  }, 30_000);
});

describe('startOrExit', () => {
  it('prints one line naming the service and exits 1 when start fails', async () => {
    const exit = jest.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      startOrExit('crm-api', async () => {
        throw new Error('MONGO_URL is not a valid MongoDB URL');
      });
      await new Promise((r) => setImmediate(r));
      expect(consoleError).toHaveBeenCalledWith('crm-api failed to start: MONGO_URL is not a valid MongoDB URL');
      expect(exit).toHaveBeenCalledWith(1);
    } finally {
      exit.mockRestore();
      consoleError.mockRestore();
    }
  });

  it('does nothing more when start succeeds', async () => {
    const exit = jest.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    try {
      startOrExit('crm-api', async () => 'started');
      await new Promise((r) => setImmediate(r));
      expect(exit).not.toHaveBeenCalled();
    } finally {
      exit.mockRestore();
    }
  });
});
