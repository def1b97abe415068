import { unexpectedProblems } from '@lib/routing/testing';
import request from 'supertest';
import { setupArticlesApp } from './setup-app';

const ctx = setupArticlesApp();

it('serves an OpenAPI document that redocly lint (recommended rules) passes without an error or a warning', async () => {
  const res = await request(ctx.app).get('/openapi.json').expect(200);
  expect(unexpectedProblems(res.body)).toEqual([]);
});
