import { unexpectedProblems } from '@lib/routing/testing';
import request from 'supertest';
import { setupArticlesApp } from './setup-app';

const ctx = setupArticlesApp();

it('serves an OpenAPI document that redocly lint (recommended rules) passes without an error or a warning', async () => {
  const res = await request(ctx.app).get('/openapi.json').expect(200);
  expect(Object.keys(res.body.components.schemas).sort()).toEqual(['Article', 'Error']);
  expect(unexpectedProblems(res.body)).toEqual([]);
});
