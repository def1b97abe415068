import express, { type Express, type RequestHandler } from 'express';
import request from 'supertest';
import { errorHandler, notFoundHandler, type ErrorDescription, type ErrorSender } from './error-middleware';
import { HttpError } from './http-error';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A service's own error body shape, so the tests can tell it apart from any default. */
const format = (e: ErrorDescription) => ({
  error: { status: e.status, code: e.code, message: e.message, fields: e.details, errorId: e.errorId },
});

interface TestApp {
  app: Express;
  log: { error: jest.Mock };
}

function buildApp(routes: (app: Express) => void, options: { send?: ErrorSender; withLogger?: boolean } = {}): TestApp {
  const log = { error: jest.fn() };
  const app = express();
  if (options.withLogger !== false) {
    app.use(((req, _res, next) => {
      (req as unknown as { log: typeof log }).log = log;
      next();
    }) as RequestHandler);
  }
  routes(app);
  app.use(notFoundHandler);
  app.use(errorHandler({ format, send: options.send }));
  return { app, log };
}

describe('errorHandler', () => {
  it('answers an HttpError with its status, the service body format and its headers', async () => {
    const { app, log } = buildApp((a) =>
      a.get('/thing', () => {
        throw new HttpError(401, 'unauthorized', 'Key required', {
          details: [{ field: 'key', message: 'is missing' }],
          headers: { 'WWW-Authenticate': 'Bearer' },
        });
      }),
    );
    const res = await request(app).get('/thing');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      error: { status: 401, code: 'unauthorized', message: 'Key required', fields: [{ field: 'key', message: 'is missing' }] },
    });
    expect(log.error).not.toHaveBeenCalled();
  });

  it('catches errors from async handlers (Express 5)', async () => {
    const { app } = buildApp((a) =>
      a.get('/async', async () => {
        await new Promise((r) => setTimeout(r, 5));
        throw new HttpError(409, 'conflict', 'Already there');
      }),
    );
    const res = await request(app).get('/async');
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('conflict');
  });

  it('gives a 5xx HttpError an error id and logs it', async () => {
    const { app, log } = buildApp((a) =>
      a.get('/down', () => {
        throw new HttpError(502, 'upstream_failed', 'Upstream failed');
      }),
    );
    const res = await request(app).get('/down');
    expect(res.status).toBe(502);
    expect(res.body.error.errorId).toMatch(UUID);
    expect(log.error).toHaveBeenCalledWith(expect.objectContaining({ errorId: res.body.error.errorId }), 'Upstream failed');
  });

  describe('body-parser errors through express.json', () => {
    const { app } = buildApp((a) => {
      a.use(express.json({ limit: '1kb' }));
      a.post('/echo', (req, res) => {
        res.json(req.body);
      });
    });

    it('malformed JSON is a 400 with a clear message', async () => {
      const res = await request(app).post('/echo').set('Content-Type', 'application/json').send('{"name": ');
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_body', message: expect.stringContaining('not valid JSON') });
      expect(res.body.error.errorId).toBeUndefined();
    });

    it('an oversize body is a 413', async () => {
      const res = await request(app)
        .post('/echo')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ text: 'x'.repeat(2048) }));
      expect(res.status).toBe(413);
      expect(res.body.error.code).toBe('payload_too_large');
    });

    it('a valid body still passes', async () => {
      const res = await request(app).post('/echo').send({ ok: true });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
    });
  });

  it('answers 503 with Retry-After when the database is unavailable, hiding the driver message', async () => {
    const { app } = buildApp((a) =>
      a.get('/contacts', () => {
        throw Object.assign(new Error('Server selection timed out after 3000 ms (10.1.2.3:27017)'), {
          name: 'MongoServerSelectionError',
        });
      }),
    );
    const res = await request(app).get('/contacts');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body.error.code).toBe('database_unavailable');
    expect(res.body.error.errorId).toMatch(UUID);
    expect(res.text).not.toContain('10.1.2.3');
  });

  it('answers a path with malformed percent-encoding with 400, not 500', async () => {
    const { app } = buildApp((a) => a.get('/contacts/:id', (_req, res) => res.json({ ok: true })));
    const res = await request(app).get('/contacts/%zz');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ status: 400, code: 'bad_request', message: 'Malformed percent-encoding in the request path' });
  });

  it('keeps the 4xx status of framework errors, showing their message only when it is marked safe', async () => {
    const { app } = buildApp((a) => {
      a.get('/exposed', () => {
        throw Object.assign(new Error('invalid gzip data'), { status: 400, expose: true });
      });
      a.get('/hidden', () => {
        throw Object.assign(new Error('internal detail /srv/x.js'), { status: 415 });
      });
    });
    const exposed = await request(app).get('/exposed');
    expect([exposed.status, exposed.body.error.message]).toEqual([400, 'invalid gzip data']);
    const hidden = await request(app).get('/hidden');
    expect([hidden.status, hidden.body.error.message]).toEqual([415, 'The request could not be read']);
  });

  it('answers an unknown error with 500 and an error id, never the message or stack', async () => {
    const secret = 'password=hunter2 at /srv/app/handler.js:42';
    const thrown = new Error(secret);
    const { app, log } = buildApp((a) =>
      a.get('/crash', () => {
        throw thrown;
      }),
    );
    const res = await request(app).get('/crash');
    expect(res.status).toBe(500);
    expect(res.body.error).toEqual({ status: 500, code: 'internal_error', message: 'Internal server error', errorId: expect.stringMatching(UUID) });
    expect(res.text).not.toContain('hunter2');
    expect(res.text).not.toContain('handler.js');
    expect(res.text).not.toContain(thrown.stack!.split('\n')[1].trim());
    // the id in the body is the one logged with the error, so the two can be matched up
    expect(log.error).toHaveBeenCalledWith({ err: thrown, errorId: res.body.error.errorId }, 'unhandled error');
  });

  it('falls back to console.error with the error id when the request has no logger', async () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const { app } = buildApp(
        (a) =>
          a.get('/crash', () => {
            throw new Error('boom');
          }),
        { withLogger: false },
      );
      const res = await request(app).get('/crash');
      expect(res.status).toBe(500);
      expect(consoleError).toHaveBeenCalledWith(`unhandled error ${res.body.error.errorId}`, expect.any(Error));
    } finally {
      consoleError.mockRestore();
    }
  });

  it('treats a thrown non-Error value as a 500', async () => {
    const { app } = buildApp((a) =>
      a.get('/string', () => {
        throw 'just a string';
      }),
    );
    const res = await request(app).get('/string');
    expect(res.status).toBe(500);
    expect(res.text).not.toContain('just a string');
  });

  it('uses the given sender (e.g. XML) instead of JSON', async () => {
    const send: ErrorSender = (_req, res, status, body) => {
      const { error } = body as ReturnType<typeof format>;
      res.status(status).type('application/xml').send(`<error><code>${error.code}</code></error>`);
    };
    const { app } = buildApp(
      (a) =>
        a.get('/x', () => {
          throw new HttpError(404, 'not_found', 'gone');
        }),
      { send },
    );
    const res = await request(app).get('/x');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    expect(res.text).toBe('<error><code>not_found</code></error>');
  });

  it('does not try to answer again when the response has already started', async () => {
    const formatSpy = jest.fn(format);
    const log = { error: jest.fn() };
    const app = express();
    app.use(((req, _res, next) => {
      (req as unknown as { log: typeof log }).log = log;
      next();
    }) as RequestHandler);
    app.get('/stream', (_req, res, next) => {
      res.status(200).setHeader('Content-Type', 'text/plain');
      res.write('partial');
      next(new Error('failed mid-stream'));
    });
    app.get('/after', (_req, res) => {
      res.json({ alive: true });
    });
    app.use(errorHandler({ format: formatSpy }));

    // Express' final handler cuts the connection; the client sees a partial 200 or a socket error.
    const outcome = await request(app)
      .get('/stream')
      .then((res) => res.status, (err: Error) => err.message);
    expect(outcome === 200 || typeof outcome === 'string').toBe(true);
    expect(formatSpy).not.toHaveBeenCalled();
    expect(log.error).toHaveBeenCalledWith({ err: expect.any(Error) }, 'error after response started');
    // the process and app are still fine
    const after = await request(app).get('/after');
    expect(after.status).toBe(200);
    expect(after.body).toEqual({ alive: true });
  });
});

describe('notFoundHandler', () => {
  it('is a 404 naming the method and path, in the service format', async () => {
    const { app } = buildApp((a) => a.get('/known', (_req, res) => res.json({})));
    const res = await request(app).delete('/nowhere/else?x=1');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'not_found', message: 'No route for DELETE /nowhere/else' });
  });

  it('leaves matched routes alone', async () => {
    const { app } = buildApp((a) => a.get('/known', (_req, res) => res.json({ ok: 1 })));
    const res = await request(app).get('/known');
    expect(res.status).toBe(200);
  });
});
