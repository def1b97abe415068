import { Writable } from 'node:stream';
import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { createLogger, httpLogger, redactUrl } from './logger';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: pino({ level: 'info' }, stream) };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 50 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
}

describe('createLogger', () => {
  it('names the service and takes the level', () => {
    const logger = createLogger('crm-api', 'warn');
    expect(logger.level).toBe('warn');
    expect(logger.bindings().name).toBe('crm-api');
  });
});

describe('httpLogger', () => {
  const { lines, logger } = capture();
  const app = express();
  app.use(httpLogger(logger));
  app.get('/ok', (_req, res) => {
    res.json({});
  });
  app.get('/missing', (_req, res) => {
    res.status(404).json({});
  });
  app.get('/broken', (_req, res) => {
    res.status(500).json({});
  });

  beforeEach(() => {
    lines.length = 0;
  });

  it.each([
    ['/ok', 200, 30],
    ['/missing', 404, 40],
    ['/broken', 500, 50],
  ])('logs one line for %s (status %i) at level %i, tagged with the request id', async (path, status, level) => {
    const res = await request(app).get(path).set('X-Request-Id', 'req-42').set('Authorization', 'Bearer secret-token');
    expect(res.status).toBe(status);
    expect(res.headers['x-request-id']).toBe('req-42');
    await until(() => lines.length > 0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level, req: { id: 'req-42', method: 'GET', url: path }, res: { statusCode: status } });
    expect(JSON.stringify(lines[0])).not.toContain('secret-token');
  });
});

describe('redactUrl', () => {
  it('hides access_token query values and keeps the rest', () => {
    expect(redactUrl('/news?q=bhp&access_token=eyJ.abc.def&limit=2')).toBe('/news?q=bhp&access_token=[REDACTED]&limit=2');
    expect(redactUrl('/news?access_token=x')).toBe('/news?access_token=[REDACTED]');
    expect(redactUrl('/news?my_access_token=x')).toBe('/news?my_access_token=x');
    expect(redactUrl(undefined)).toBeUndefined();
  });
});
