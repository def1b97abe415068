import http from 'node:http';
import express from 'express';
import { Schema } from 'mongoose';
import { runService, startOrExit, type ServiceDeps } from './run-service';
import type { RunningServer } from './serve';

function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe('runService', () => {
  const signals = ['SIGTERM', 'SIGINT'] as const;
  let before: Record<string, NodeJS.SignalsListener[]>;
  let running: RunningServer | undefined;

  beforeEach(() => {
    before = Object.fromEntries(signals.map((s) => [s, process.listeners(s)]));
  });

  afterEach(async () => {
    await running?.shutdown();
    for (const s of signals) for (const l of process.listeners(s)) if (!before[s].includes(l)) process.removeListener(s, l);
  });

  it('connects, builds the app, creates indexes, listens, and closes the database on shutdown', async () => {
    let deps: ServiceDeps | undefined;
    running = await runService({
      name: 'run-service-spec',
      port: 0,
      logLevel: 'silent',
      database: { url: process.env.TEST_MONGO_URL, dbName: 'run_service_spec' },
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
    running = await runService({
      name: 'run-service-spec',
      port: 0,
      logLevel: 'silent',
      database: { url: process.env.TEST_MONGO_URL, dbName: 'run_service_spec_close' },
      createApp(given) {
        deps = given;
        return express();
      },
      beforeClose: async () => {
        stateAtBeforeClose = deps?.connection.readyState;
      },
    });
    await running.shutdown();
    expect(stateAtBeforeClose).toBe(1);
    expect(deps?.connection.readyState).toBe(0);
  });
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
