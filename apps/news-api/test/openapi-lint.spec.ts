import { unexpectedProblems } from '@lib/routing/testing';
import request from 'supertest';
import { setupNewsApp } from './setup-app';

const ctx = setupNewsApp();

it('serves an OpenAPI document that redocly lint (recommended rules) passes without an error or a warning', async () => {
  const res = await request(ctx.app).get('/openapi.json').expect(200);
  expect(Object.keys(res.body.components.schemas).sort()).toEqual(['ApiKey', 'Article', 'Error', 'NewApiKey', 'User']);
  expect(unexpectedProblems(res.body)).toEqual([]);
});
