import express from 'express';
import request from 'supertest';
import { requestId } from './request-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const app = express();
app.get('/', (req, res) => {
  const id = requestId(req, res);
  res.json({ id });
});

describe('requestId', () => {
  it('keeps a sane incoming id and echoes it', async () => {
    for (const id of ['abc-123', 'gw:7f3a.01_x', 'a'.repeat(128)]) {
      const res = await request(app).get('/').set('X-Request-Id', id);
      expect(res.body.id).toBe(id);
      expect(res.headers['x-request-id']).toBe(id);
    }
  });

  it('makes a new id when none is given, different each time', async () => {
    const first = await request(app).get('/');
    const second = await request(app).get('/');
    expect(first.body.id).toMatch(UUID);
    expect(first.headers['x-request-id']).toBe(first.body.id);
    expect(second.body.id).not.toBe(first.body.id);
  });

  it.each([
    ['too long', 'a'.repeat(129)],
    ['spaces', 'has space'],
    ['markup', '<script>'],
    ['escape characters', 'ok\\nFAKE'],
    ['empty', ''],
    ['non-ASCII', 'idé'],
  ])('replaces an unacceptable id (%s)', async (_name, bad) => {
    const res = await request(app).get('/').set('X-Request-Id', bad);
    expect(res.body.id).toMatch(UUID);
    expect(res.headers['x-request-id']).toBe(res.body.id);
  });
});
