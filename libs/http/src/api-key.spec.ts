import { errorHandler } from '@lib/errors';
import express, { type Express } from 'express';
import request from 'supertest';
import { requireApiKey } from './api-key';

function appWith(key: string | undefined): Express {
  const app = express();
  app.post('/write', requireApiKey(key), (_req, res) => {
    res.status(201).json({ written: true });
  });
  app.use(errorHandler({ format: (e) => ({ code: e.code, message: e.message }) }));
  return app;
}

describe('requireApiKey', () => {
  it('lets everything through when no key is configured', async () => {
    for (const key of [undefined, '']) {
      const res = await request(appWith(key)).post('/write');
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ written: true });
    }
  });

  describe('with a key configured', () => {
    const app = appWith('s3cret-key');

    it('answers 401 with WWW-Authenticate when no key is sent', async () => {
      const res = await request(app).post('/write');
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.body.code).toBe('unauthorized');
      expect(res.body.message).toContain('X-API-Key');
    });

    it('treats other authorization schemes as no key', async () => {
      const res = await request(app).post('/write').set('Authorization', 'Basic czNjcmV0LWtleTo=');
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
    });

    it('answers 401 invalid_token for a wrong key, whatever its length', async () => {
      for (const wrong of ['nope', 's3cret-kez', 's3cret-key-and-more', '', 'S3CRET-KEY']) {
        const res = await request(app).post('/write').set('X-API-Key', wrong);
        expect([wrong, res.status]).toEqual([wrong, 401]);
        expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
        expect(res.body.message).toBe('The API key is not valid');
      }
      const bearer = await request(app).post('/write').set('Authorization', 'Bearer nope');
      expect(bearer.status).toBe(401);
      expect(bearer.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    });

    it('accepts the key as X-API-Key', async () => {
      const res = await request(app).post('/write').set('X-API-Key', 's3cret-key');
      expect(res.status).toBe(201);
    });

    it('accepts the key as a Bearer token, any scheme case', async () => {
      for (const header of ['Bearer s3cret-key', 'bearer s3cret-key', 'Bearer s3cret-key  ']) {
        const res = await request(app).post('/write').set('Authorization', header);
        expect([header, res.status]).toEqual([header, 201]);
      }
    });

    it('uses X-API-Key when both are sent', async () => {
      const res = await request(app).post('/write').set('X-API-Key', 'wrong').set('Authorization', 'Bearer s3cret-key');
      expect(res.status).toBe(401);
    });
  });
});
