import { errorHandler } from '@lib/errors';
import express, { type Express } from 'express';
import request from 'supertest';
import { bodyParsers, discardBody } from './body-parsers';

function appWith(limit?: string): Express {
  const app = express();
  app.use(bodyParsers(limit === undefined ? undefined : { limit }));
  app.post('/echo', (req, res) => {
    res.json({ body: req.body ?? null });
  });
  app.use(errorHandler({ format: (e) => ({ code: e.code, message: e.message }) }));
  return app;
}

describe('bodyParsers', () => {
  const app = appWith('1kb');

  it('parses JSON under the limit', async () => {
    const res = await request(app).post('/echo').send({ name: 'Ada', n: 1 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ body: { name: 'Ada', n: 1 } });
  });

  it('parses +json media types', async () => {
    const res = await request(app).post('/echo').set('Content-Type', 'application/merge-patch+json').send('{"a":1}');
    expect(res.body).toEqual({ body: { a: 1 } });
  });

  it('answers 413 for JSON over the limit', async () => {
    const res = await request(app)
      .post('/echo')
      .send({ text: 'x'.repeat(1100) });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('payload_too_large');
  });

  it('answers 413 for a form over the limit', async () => {
    const res = await request(app).post('/echo').type('form').send(`text=${'x'.repeat(1100)}`);
    expect(res.status).toBe(413);
  });

  it('answers 400 for malformed JSON and for a top-level scalar (strict)', async () => {
    const malformed = await request(app).post('/echo').set('Content-Type', 'application/json').send('{"a":');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('invalid_body');
    const scalar = await request(app).post('/echo').set('Content-Type', 'application/json').send('"just a string"');
    expect(scalar.status).toBe(400);
  });

  it('answers 400 for JSON of more values than any input may hold, before parsing it', async () => {
    const big = appWith('1mb');
    const parse = jest.spyOn(JSON, 'parse');
    try {
      const res = await request(big).post('/echo').set('Content-Type', 'application/json').send(`[${new Array(200_000).fill(0).join(',')}]`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'bad_request', message: 'body: holds more than 20000 values' });
      expect(parse).not.toHaveBeenCalledWith(expect.stringMatching(/^\[0,0,/), undefined);
    } finally {
      parse.mockRestore();
    }
  });

  it('parses forms flat: bracketed names stay plain keys', async () => {
    const res = await request(app).post('/echo').type('form').send('a[b]=1&c[]=2&d.e=3&name=Ada+L');
    expect(res.status).toBe(200);
    expect(res.body.body).toEqual({ 'a[b]': '1', 'c[]': '2', 'd.e': '3', name: 'Ada L' });
  });

  it('answers 413 for a form with too many parameters', async () => {
    const many = Array.from({ length: 201 }, (_, i) => `k${i}=1`).join('&');
    const res = await request(appWith('1mb')).post('/echo').type('form').send(many);
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('Too many form parameters');
  });

  it('leaves other content types unparsed', async () => {
    const res = await request(app).post('/echo').set('Content-Type', 'text/plain').send('hello');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ body: null });
  });

  it('defaults to a 100kb limit', async () => {
    const defaults = appWith();
    const under = await request(defaults).post('/echo').send({ text: 'x'.repeat(90 * 1024) });
    expect(under.status).toBe(200);
    const over = await request(defaults).post('/echo').send({ text: 'x'.repeat(110 * 1024) });
    expect(over.status).toBe(413);
  });
});

describe('discardBody', () => {
  const app = express();
  app.delete('/thing', discardBody({ limit: '1kb' }), (req, res) => {
    res.json({ body: req.body ?? null });
  });
  app.use(errorHandler({ format: (e) => ({ code: e.code, message: e.message }) }));

  it('passes a request without a body straight on, with no body', async () => {
    const res = await request(app).delete('/thing');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ body: null });
  });

  it('reads and drops a body under the limit, and answers 413 for one over it', async () => {
    const under = await request(app).delete('/thing').set('Content-Type', 'application/json').send({ text: 'x'.repeat(500) });
    expect(under.status).toBe(200);
    expect(under.body).toEqual({ body: null });
    const over = await request(app).delete('/thing').set('Content-Type', 'text/plain').send('x'.repeat(2048));
    expect(over.status).toBe(413);
  });
});
