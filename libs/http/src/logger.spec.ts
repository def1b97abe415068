import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { logDestination } from './log-destination';
import { createLogger, httpLogger, redactUrl } from './logger';
import { TRACE_ID } from './trace-id';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: pino({ level: 'info', base: undefined }, stream) };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 50 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
}

describe('createLogger', () => {
  it('names the service and takes the level', () => {
    const logger = createLogger('crm-api', 'warn');
    expect(logger.level).toBe('warn');
    expect(logger.bindings()).toEqual({ name: 'crm-api' }); // no pid or hostname on every line
  });

  it('writes to stdout through the synchronous destination', () => {
    const stream = (createLogger('crm-api') as unknown as Record<symbol, { fd: number; sync: boolean }>)[pino.symbols.streamSym];
    expect(stream).toMatchObject({ fd: 1, sync: true });
  });
});

describe('logDestination', () => {
  it('has written a line when the call returns: nothing waits in memory, nothing is lost if the process dies next', () => {
    const dir = mkdtempSync(join(tmpdir(), 'log-destination-'));
    const fd = openSync(join(dir, 'out.log'), 'w');
    try {
      const logger = pino({ base: undefined, timestamp: false }, logDestination(fd));
      logger.info({ id: 'r1', status: 200 }, 'done');
      expect(JSON.parse(readFileSync(join(dir, 'out.log'), 'utf8'))).toEqual({ level: 30, id: 'r1', status: 200, msg: 'done' });
    } finally {
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('httpLogger', () => {
  const { lines, logger } = capture();
  const app = express();
  app.use(httpLogger(logger));
  app.get('/ok/:id', (_req, res) => {
    res.json({});
  });
  app.get('/missing', (_req, res) => {
    res.status(404).json({});
  });
  app.get('/broken', (_req, res) => {
    res.status(500).json({});
  });
  app.get('/crm', (req, res) => {
    (req as { user?: object }).user = { _id: 7, account: 3, email: 'not@logged.test' };
    res.json({});
  });
  app.get('/traced', (req, res) => {
    // what tracing's HTTP instrumentation leaves on the request (see ./tracing)
    (req as { [TRACE_ID]?: string })[TRACE_ID] = '0af7651916cd43dd8448eb211c80319c';
    res.json({});
  });
  app.get('/news', (req, res) => {
    (req as { user?: object }).user = { _id: 9, email: 'not@logged.test' };
    res.json({});
  });

  beforeEach(() => {
    lines.length = 0;
  });

  const lineOf = async (path: string, headers: Record<string, string> = {}) => {
    const res = await request(app).get(path).set(headers);
    await until(() => lines.length > 0);
    expect(lines).toHaveLength(1);
    return { res, line: lines[0] };
  };

  it.each([
    ['/ok/12?q=a', '/ok/:id', 200, 30],
    ['/missing', '/missing', 404, 40],
    ['/broken', '/broken', 500, 50],
  ])('logs one compact line for %s: request id, method, route template, status, duration; level by status', async (path, route, status, level) => {
    const { res, line } = await lineOf(path, { 'X-Request-Id': 'req-42', Authorization: 'Bearer secret-token' });
    expect(res.status).toBe(status);
    expect(res.headers['x-request-id']).toBe('req-42');
    expect(line).toEqual({ level, time: expect.any(Number), id: 'req-42', method: 'GET', route, status, ms: expect.any(Number) });
    expect(line.ms).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(line)).not.toContain('secret-token');
  });

  it('names the account and the user (ids only) when a route signed one in', async () => {
    expect((await lineOf('/crm')).line).toMatchObject({ route: '/crm', status: 200, account: 3, user: 7 });
    lines.length = 0;
    const { line } = await lineOf('/news');
    expect(line).toMatchObject({ route: '/news', user: 9 });
    expect(line).not.toHaveProperty('account');
    expect(JSON.stringify(line)).not.toContain('not@logged.test');
  });

  it('names the trace when tracing is on, and has no trace field otherwise', async () => {
    expect((await lineOf('/traced')).line).toMatchObject({ route: '/traced', status: 200, trace: '0af7651916cd43dd8448eb211c80319c' });
    lines.length = 0;
    expect((await lineOf('/crm')).line).not.toHaveProperty('trace');
  });

  it('logs the URL, shortened and without tokens, when no route matched', async () => {
    const { line } = await lineOf(`/nowhere?access_token=secret-token&pad=${'x'.repeat(500)}`);
    expect(line).toMatchObject({ method: 'GET', status: 404, url: expect.stringMatching(/^\/nowhere\?access_token=\[REDACTED\]&pad=x+$/) });
    expect(String(line.url)).toHaveLength(200);
    expect(line).not.toHaveProperty('route');
    expect(line.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('writes nothing below its level', async () => {
    const quiet = capture();
    quiet.logger.level = 'warn';
    const small = express();
    small.use(httpLogger(quiet.logger));
    small.get('/ok', (_req, res) => {
      res.json({});
    });
    await request(small).get('/ok').expect(200);
    await request(small).get('/gone').expect(404);
    await until(() => quiet.lines.length > 0);
    expect(quiet.lines.map((line) => line.status)).toEqual([404]);
  });
});

describe('redactUrl', () => {
  it('hides access_token query values and keeps the rest', () => {
    expect(redactUrl('/news?q=bhp&access_token=eyJ.abc.def&limit=2')).toBe('/news?q=bhp&access_token=[REDACTED]&limit=2');
    expect(redactUrl('/news?access_token=x')).toBe('/news?access_token=[REDACTED]');
    expect(redactUrl('/news?my_access_token=x')).toBe('/news?my_access_token=x');
    expect(redactUrl('/news?q=bhp&apiKey=nk_1_secret&limit=2')).toBe('/news?q=bhp&apiKey=[REDACTED]&limit=2');
    expect(redactUrl(undefined)).toBeUndefined();
  });
});
